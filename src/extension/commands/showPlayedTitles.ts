// Show Played Titles: the titles GetPlayedTitleList reports for a PlatformId.
import type { Services } from '../services';
import { resolveTitle } from './args';
import { resolvePlatformId } from './platformIdArg';

export async function showPlayedTitles(s: Services, arg?: unknown): Promise<string[]> {
  const title = await resolveTitle(s, arg);
  const platformId = await resolvePlatformId(s, arg, 'Show Played Titles');
  const client = await s.clients.get(title.titleId);
  const { TitleIds } = await client.getPlayedTitleList(platformId);
  const list = TitleIds ?? [];
  const names = list.map((id) => {
    const known = s.titles.get(id);
    return known ? `${id} (${known.name})` : id;
  });
  void s.prompts.info(
    list.length === 0
      ? `PlatformId ${platformId} has played no titles of this publisher.`
      : `PlatformId ${platformId} has played ${list.length} title${list.length === 1 ? '' : 's'}: ${names.join(', ')}.`,
  );
  return list;
}
