// The PlatformId a player command acts on: argument, else the editor's cursor/selection (only
// when the command was not started from the Platform view), else typed.
import * as vscode from 'vscode';
import { validatePlatformId } from '../../core/ids';
import { platformIdInEditor } from '../editor/selection';
import { CommandError } from '../errors';
import type { CommandContext } from './context';
import { parseTarget, stringMember, type Target } from './parse';

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

/** The PlatformId given as argument (validated), else the one at `editor`'s cursor or selection (not from a node). */
export function resolvePlatformIdFromArgOrEditor(arg: unknown, editor: vscode.TextEditor | undefined): string | undefined {
  return givenOrEditorPlatformId(platformIdMember(arg), parseTarget([arg]), editor);
}

/** The PlatformId as resolvePlatformIdFromArgOrEditor finds it, else typed. */
export async function resolvePlatformId(c: CommandContext, arg: unknown, purpose: string, editor: vscode.TextEditor | undefined): Promise<string> {
  const known = resolvePlatformIdFromArgOrEditor(arg, editor);
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
