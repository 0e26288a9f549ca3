// The argument of a player command's palette variant shown while the Titles view has focus
// (package.json's commandPalette `when: focusedView == platformExplorer.titles`): VS Code still
// reports the editor behind the view as active and gives extensions no focused-view API, so these
// variants act on the view's selection and never read an editor.
import { DeletionJobNode } from '../tree/jobNodes';
import type { CommandContext } from './context';

/**
 * The one selected deletion job as `{ titleId, platformId }`; else the one selected node (its
 * title, and the command asks for the player); else undefined (the command asks).
 */
export function titlesViewArg(c: CommandContext): unknown {
  const selected = c.services.tree.view?.selection ?? [];
  const node = selected.length === 1 ? selected[0] : undefined;
  return node instanceof DeletionJobNode ? { titleId: node.titleId, platformId: node.job.platformId } : node;
}
