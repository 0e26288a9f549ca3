// The PlatformId a player command acts on: argument, else the editor's cursor/selection (only
// when the command was not started from the Platform view), else typed.
import * as vscode from 'vscode';
import { validatePlatformId } from '../../core/ids';
import { platformIdInEditor } from '../editor/selection';
import { CommandError } from '../errors';
import type { CommandContext } from './context';
import type { Invocation } from './define';
import { parseTarget, stringMember, type Target } from './parse';
import { titlesViewPlayer } from './titlesViewArg';

/** The argument's `platformId` member, validated (a CommandError says what is wrong) and upper-cased. */
export function platformIdMember(arg: unknown): string | undefined {
  const given = stringMember(arg, 'platformId');
  if (given === undefined) return undefined;
  const problem = validatePlatformId(given);
  if (problem) {
    throw new CommandError(problem);
  }
  return given.toUpperCase();
}

/**
 * The PlatformId given, else the one at `editor`'s cursor or selection (none for a command
 * started from a node of the Platform view, or with no editor given).
 */
export function givenOrEditorPlatformId(given: string | undefined, target: Target, editor: vscode.TextEditor | undefined): string | undefined {
  if (given !== undefined) return given;
  // From a node of the Platform view, whatever editor happens to be active is not what the user meant.
  if (target.node) return undefined;
  return platformIdInEditor(editor)?.toUpperCase();
}

/** What a player command is started with: the title, the PlatformId when given, and whether the editor may be read. */
export interface PlayerArgs {
  readonly target: Target;
  /** Given as `{ platformId }` (a hover link, a test) or by the InView variant's deletion job: validated, upper case. */
  readonly platformId?: string;
  /** The active editor's cursor or selection may be read: not from a node, not InView. */
  readonly readEditor: boolean;
}

/**
 * `{ titleId, platformId }`, a title's node, an editor's Uri, nothing (the palette); the InView
 * variant: the view's selected deletion job's player, never the editor behind the view.
 */
export function parsePlayerArgs(raw: readonly unknown[], at: Invocation): PlayerArgs {
  if (at.inView) {
    const { target, platformId } = titlesViewPlayer(at.viewSelection);
    return { target, platformId: platformIdMember({ platformId }), readEditor: false };
  }
  const target = parseTarget(raw);
  // From a node of the Platform view, the active editor's cursor or selection is not what the user meant.
  return { target, platformId: platformIdMember(raw[0]), readEditor: target.node === undefined };
}

/** The active editor when the command may read it. */
export const editorFor = (a: PlayerArgs): vscode.TextEditor | undefined => (a.readEditor ? vscode.window.activeTextEditor : undefined);

/** The PlatformId given, else the one at the editor's cursor or selection (when it may be read), else typed. */
export async function resolvePlatformId(c: CommandContext, a: PlayerArgs, purpose: string): Promise<string> {
  const known = givenOrEditorPlatformId(a.platformId, a.target, editorFor(a));
  if (known) {
    return known;
  }
  return (await c.ui.input({
    title: purpose,
    prompt: vscode.l10n.t('The player\'s PlatformId'),
    placeHolder: vscode.l10n.t('e.g. {0}', '9437A5ADDAE3012D'),
    validateInput: (v) => validatePlatformId(v.trim()),
  }))
    .trim()
    .toUpperCase();
}
