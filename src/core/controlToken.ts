// The control token of a local emulator's /_emulator/ routes (every one but ready needs
// `Authorization: Bearer TOKEN`), as the product's own callers find it: the token of an emulator
// this process started or was handed (the demo's file), else PLATFORM_EMULATOR_CONTROL_TOKEN.
// Never from argv, never written anywhere.

/** The environment variable that fixes an emulator's control token and tells clients what it is. */
export const CONTROL_TOKEN_ENV = 'PLATFORM_EMULATOR_CONTROL_TOKEN';

const known = new Map<string, string>();

/** Remembers the control token of the emulator at `origin` (http://127.0.0.1:PORT) for this process. */
export function rememberControlToken(origin: string, token: string): void {
  known.set(new URL(origin).origin, token);
}

export function forgetControlToken(origin: string): void {
  known.delete(new URL(origin).origin);
}

/** The headers a control call to the emulator at `origin` sends: its token when one is known. */
export function controlHeaders(origin: string, env: Record<string, string | undefined> = process.env): Record<string, string> {
  let token: string | undefined;
  try {
    token = known.get(new URL(origin).origin);
  } catch { /* not a URL: no token */ }
  token ??= env[CONTROL_TOKEN_ENV] || undefined;
  return token === undefined ? {} : { Authorization: `Bearer ${token}` };
}
