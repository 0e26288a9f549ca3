// Real HTTP to an in-process emulator on 127.0.0.1 (global fetch; no client code).
import { checkedEmulator } from '../helpers/contract';
import type { EmulatorHandle, EmulatorOptions } from '../../../src/emulator/server';
import { DEMO_TITLES } from '../../../src/emulator/seed';

export const MAIN = DEMO_TITLES[0];
export const ARENA = DEMO_TITLES[1];

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // Tests read fields freely from parsed bodies.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface CallInit {
  method?: string;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  signal?: AbortSignal;
}

export class Emu {
  private constructor(readonly handle: EmulatorHandle) {}

  static async start(o: EmulatorOptions = {}): Promise<Emu> {
    return new Emu(await checkedEmulator({ deletionDelayMs: 60_000, ...o }));
  }

  get origin(): string {
    return this.handle.origin;
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  async raw(path: string, init: CallInit = {}): Promise<Answer> {
    const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    const res = await fetch(this.origin + path, {
      method: init.method ?? 'POST',
      headers: init.headers,
      body,
      signal: init.signal ?? AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  /** A service call on the title with its secret key (unless headers say otherwise). */
  call(op: string, body: unknown = {}, o: { titleId?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
    const titleId = o.titleId ?? MAIN.titleId;
    const key = DEMO_TITLES.find((t) => t.titleId === titleId)?.secretKey ?? MAIN.secretKey;
    return this.raw(`/${titleId}/${op}`, {
      headers: { 'Content-Type': 'application/json', 'X-SecretKey': key, ...o.headers },
      body,
    });
  }

  /** A call with an entity token only (Addon area). */
  callWithToken(op: string, token: string, body: unknown = {}, titleId = MAIN.titleId): Promise<Answer> {
    return this.raw(`/${titleId}/${op}`, {
      headers: { 'Content-Type': 'application/json', 'X-EntityToken': token },
      body,
    });
  }

  async titleToken(titleId = MAIN.titleId): Promise<string> {
    const r = await this.call('Authentication/GetEntityToken', {}, { titleId });
    if (r.status !== 200) throw new Error(`GetEntityToken failed: ${r.text}`);
    return r.json.data.EntityToken as string;
  }

  async control(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<Answer> {
    return this.raw(`/_emulator/${path}`, { method, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${this.handle.controlToken}` }, body });
  }

  async launcherToken(o: Record<string, unknown>): Promise<string> {
    const r = await this.control('launcher-token', { titleId: MAIN.titleId, ...o });
    if (r.status !== 200) throw new Error(`launcher-token failed: ${r.text}`);
    return r.json.IdentityToken as string;
  }
}
