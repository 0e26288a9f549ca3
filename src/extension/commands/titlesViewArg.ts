// The argument of a player command's palette variant shown while the Titles view has focus
// (its declaration's `inView: true`: the palette's `when: focusedView == platformExplorer.titles`):
// VS Code still reports the editor behind the view as active and gives extensions no focused-view
// API, so these variants act on the view's selection and never read an editor.
import { DeletionJobNode } from '../tree/jobNodes';
import type { TreeNode } from '../tree/nodes';
import type { Target } from './parse';
import { viewTarget } from './parse';

/** A player command's target from the view: the one selected node (its title), and a selected deletion job's player. */
export interface ViewPlayer {
  readonly target: Target;
  readonly platformId?: string;
}

/**
 * The one selected deletion job (its title and player); else the one selected node (its title,
 * and the command asks for the player); else nothing (the command asks).
 */
export function titlesViewPlayer(viewSelection: readonly TreeNode[]): ViewPlayer {
  const target = viewTarget(viewSelection);
  return { target, platformId: target.node instanceof DeletionJobNode ? target.node.job.platformId : undefined };
}
