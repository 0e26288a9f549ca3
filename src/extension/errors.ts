// Failures the extension raises itself, and how any failure reads to a user.
import * as vscode from 'vscode';
import { isCancellation, PlatformError } from '../core/api/errors';
import { brand } from '../core/brand';
import { MAX_MESSAGE, redactText } from '../core/redact';
import { RequestError } from '../core/requests/types';

/** A prompt was dismissed: the command stops without a message. */
export class UserCancelled extends Error {
  constructor() {
    super('Cancelled by the user.');
    this.name = 'UserCancelled';
  }
}
brand(UserCancelled, 'UserCancelled');

/** A failure the extension detects before any request: what happened, and what to do. */
/** The action that fixes a failure: a button on the error message that runs `command`. */
export interface FixAction {
  label: string;
  command: string;
  args?: unknown[];
}

export class CommandError extends Error {
  constructor(message: string, readonly hint?: string, readonly fix?: FixAction) {
    super(message);
    this.name = 'CommandError';
  }
}
brand(CommandError, 'CommandError');

/** The fixing action for a failure, where one fits: the error's own, else one for the service's answer. */
export function fixFor(e: unknown): FixAction | undefined {
  if (e instanceof CommandError) return e.fix;
  if (!(e instanceof PlatformError)) return undefined;
  // The key was refused: replace it (the command asks which title).
  if (e.errorCode === 1293 || e.errorCode === 1089 || (e.errorCode === 1074 && e.operation !== 'LoginWithLauncher')) {
    return { label: vscode.l10n.t('Replace Secret Key'), command: 'platformExplorer.setSecretKey' };
  }
  // A deletion that may or may not have happened: Verify Deletions finds out (never send it again first).
  if (e.outcomeUnknown) {
    return { label: vscode.l10n.t('Verify Now'), command: 'platformExplorer.verifyDeletions' };
  }
  if (emulatorNotRunning(e)) {
    return { label: vscode.l10n.t('Start Local Emulator'), command: 'platformExplorer.startEmulator' };
  }
  return undefined;
}

/** Nothing answers on this machine's loopback: the local emulator is not running (not a wrong endpoint setting). */
function emulatorNotRunning(e: unknown): boolean {
  return e instanceof PlatformError && e.kind === 'network' && /could not connect to (127\.0\.0\.1|localhost|\[::1\])/.test(e.message);
}

export function isSilent(e: unknown): boolean {
  return e instanceof UserCancelled || isCancellation(e);
}

/** False for bugs: failures that are neither the service's nor a checked precondition. */
export function isExpected(e: unknown): e is PlatformError | CommandError | RequestError {
  // A data request's RequestError names the field and the fix, as a CommandError does.
  return e instanceof PlatformError || e instanceof CommandError || e instanceof RequestError;
}

/** The text shown for a failure, redacted: PlatformError and CommandError speak for themselves. */
export function describeFailure(e: unknown, knownSecrets: readonly string[]): { message: string; hint?: string } {
  if (emulatorNotRunning(e)) {
    return { message: redactText((e as PlatformError).message, knownSecrets, MAX_MESSAGE), hint: vscode.l10n.t('The local emulator is not running: Start Local Emulator starts it.') };
  }
  if (isExpected(e)) {
    return {
      message: redactText(e.message, knownSecrets, MAX_MESSAGE),
      hint: 'hint' in e && e.hint ? redactText(e.hint, knownSecrets, MAX_MESSAGE) : undefined,
    };
  }
  const text = e instanceof Error ? e.message : String(e);
  return {
    message: vscode.l10n.t('Unexpected error: {0}', redactText(text, knownSecrets, MAX_MESSAGE)),
    hint: vscode.l10n.t('See the Platform Explorer log for details.'),
  };
}
