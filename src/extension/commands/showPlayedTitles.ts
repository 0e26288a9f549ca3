// Show Played Titles: the titles GetPlayedTitleList reports for a PlatformId.
import * as vscode from 'vscode';
import { shownTitleId } from '../../core/serviceText';
import { usableTitle, type CommandContext } from './context';
import { resolvePlatformId } from './platformIdArg';

export async function showPlayedTitles(c: CommandContext, arg?: unknown): Promise<string[]> {
  const s = c.services;
  const { client } = await usableTitle(c, arg);
  const platformId = await resolvePlatformId(c, arg, vscode.l10n.t('Show Played Titles'));
  const { TitleIds } = await client.getPlayedTitleList(platformId);
  const list = (TitleIds ?? []).map(shownTitleId);
  const names = list.map((id) => {
    const known = s.titles.get(id);
    return known ? `${id} (${known.name})` : id;
  });
  void c.ui.info(
    list.length === 0
      ? vscode.l10n.t('PlatformId {0} has played no titles of this publisher.', platformId)
      : list.length === 1
        ? vscode.l10n.t('PlatformId {0} has played {1} title: {2}.', platformId, list.length, names.join(', '))
        : vscode.l10n.t('PlatformId {0} has played {1} titles: {2}.', platformId, list.length, names.join(', ')),
  );
  return list;
}
