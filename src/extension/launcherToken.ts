// A launcher IdentityToken minted by the local emulator (its loopback-only control
// POST /_emulator/launcher-token), so Test Launcher Login needs no curl against an emulator title.
import * as vscode from 'vscode';
import { CommandError } from './errors';
import type { TitleRecord } from './titles';
import { controlHeaders } from '../core/controlToken';

/** The emulator's origin for a title of the emulator profile, else undefined. */
export function emulatorOrigin(title: TitleRecord): string | undefined {
  if (title.endpointProfile !== 'emulator' || !title.emulatorEndpoint) {
    return undefined;
  }
  return new URL(title.emulatorEndpoint.replace('{titleId}', title.titleId)).origin;
}

export function validateSubject(v: string): string | undefined {
  return /^[\x21-\x7e]{1,128}$/.test(v.trim())
    ? undefined
    : vscode.l10n.t('Enter the launcher user to sign in as: 1-128 visible characters without spaces, e.g. launcher-user-0000.');
}

export async function mintLauncherToken(origin: string, titleId: string, subject: string): Promise<string> {
  const failed = (why: string): CommandError =>
    new CommandError(
      vscode.l10n.t('The local emulator at {0} did not mint an IdentityToken: {1}.', origin, why),
      vscode.l10n.t('Start it with "Platform: Start Local Emulator", or paste a token instead.'),
    );
  let res: Response;
  try {
    res = await fetch(`${origin}/_emulator/launcher-token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...controlHeaders(origin) },
      body: JSON.stringify({ titleId, subject }),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (e) {
    throw failed(e instanceof Error && e.cause instanceof Error ? e.cause.message : vscode.l10n.t('it does not answer'));
  }
  const body = (await res.json().catch(() => undefined)) as { IdentityToken?: unknown } | undefined;
  if (!res.ok || typeof body?.IdentityToken !== 'string') {
    throw failed(vscode.l10n.t('HTTP {0}', res.status));
  }
  return body.IdentityToken;
}
