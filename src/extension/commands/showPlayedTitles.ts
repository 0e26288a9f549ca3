// Show Played Titles: the titles GetPlayedTitleList reports for a PlatformId.
import * as vscode from 'vscode';
import { shownTitleId } from '../../core/serviceText';
import type { Services } from '../services';
import { resolveTitle } from './args';
import { resolvePlatformId } from './platformIdArg';

export async function showPlayedTitles(s: Services, arg?: unknown): Promise<string[]> {
  const title = await resolveTitle(s, arg);
  const platformId = await resolvePlatformId(s, arg, vscode.l10n.t('Show Played Titles'));
  const client = await s.clients.get(title.titleId);
  const { TitleIds } = await client.getPlayedTitleList(platformId);
  const list = (TitleIds ?? []).map(shownTitleId);
  const names = list.map((id) => {
    const known = s.titles.get(id);
    return known ? `${id} (${known.name})` : id;
  });
  void s.prompts.info(
    list.length === 0
      ? vscode.l10n.t('PlatformId {0} has played no titles of this publisher.', platformId)
      : list.length === 1
        ? vscode.l10n.t('PlatformId {0} has played {1} title: {2}.', platformId, list.length, names.join(', '))
        : vscode.l10n.t('PlatformId {0} has played {1} titles: {2}.', platformId, list.length, names.join(', ')),
  );
  return list;
}
