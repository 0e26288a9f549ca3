// Shared by the deletion tests: the emulator in-process on 127.0.0.1, its controls, and the built CLI.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PlatformClient } from '../../../src/core/api/client';
import { cliAnchors } from '../../../src/cli/files';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../../src/emulator/seed';
import type { EmulatorHandle, EmulatorOptions } from '../../../src/emulator/server';
import { checkedEmulator } from '../helpers/contract';
import { emulatorControl } from '../helpers/controls';
import { CONTROL_TOKEN_ENV } from '../../../src/core/controlToken';

export const TITLE = DEMO_TITLES[0];
export const CLI = resolve('dist/cli.js');
/** The control token of TestEmulator (fixed, as a compose file fixes it); the CLI gets it in its environment. */
export const TEST_CONTROL_TOKEN = 'test-control-token-0123456789';

/** The state folder ($XDG_STATE_HOME) of the CLI runs these tests start, never the user's own; removed at exit. */
export const STATE_HOME = mkdtempSync(join(tmpdir(), 'pe-state-'));
process.once('exit', () => rmSync(STATE_HOME, { recursive: true, force: true }));

/** The config folder ($XDG_CONFIG_HOME: the operator key, request keys) of the CLI runs these tests start; removed at exit. */
export const CONFIG_HOME = mkdtempSync(join(tmpdir(), 'pe-config-'));
process.once('exit', () => rmSync(CONFIG_HOME, { recursive: true, force: true }));

/** The journal anchors of the CLI runs these tests start (with STATE_HOME), for journals opened in the test itself. */
export const CLI_ANCHORS = cliAnchors({ XDG_STATE_HOME: STATE_HOME });

/** Demo players of TITLE's publisher that are not banned, in seed order. */
export const PLAYERS = DEMO_PLAYERS.filter((p) => !p.banned);

export class TestEmulator {
  private constructor(readonly handle: EmulatorHandle) {}

  static async start(o: EmulatorOptions = {}): Promise<TestEmulator> {
    return new TestEmulator(await checkedEmulator({ seed: 'demo', deletionDelayMs: 600_000, controlToken: TEST_CONTROL_TOKEN, ...o }));
  }

  get endpoint(): string {
    return this.handle.endpoint;
  }

  // Tests read fields freely from control answers.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  control(path: string, body?: unknown): Promise<any> {
    return emulatorControl(this.handle.origin, path, body);
  }

  async jobs(): Promise<{ PlatformId: string; JobReceiptId: string; MetaData?: string; status: string; TitleIds: string[] }[]> {
    return (await this.control('jobs')).jobs;
  }

  /** DeleteMasterPlayerAccount requests the emulator received per PlatformId (its request log), since the last clearSends(). */
  async sends(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const { entries } = await this.control('requests?since=0') as { entries: { operation: string | null; request: { PlatformId?: string } | null }[] };
    for (const e of entries) {
      if (e.operation !== 'Admin/DeleteMasterPlayerAccount') continue;
      const pid = String(e.request?.PlatformId).toUpperCase();
      out.set(pid, (out.get(pid) ?? 0) + 1);
    }
    return out;
  }

  async clearSends(): Promise<void> {
    await this.control('requests/clear', {});
  }

  client(o: { maxRetries?: number } = {}): PlatformClient {
    return new PlatformClient({
      titleId: TITLE.titleId, endpoint: this.endpoint, getSecretKey: () => Promise.resolve(TITLE.secretKey), retryBaseDelayMs: 1, ...o,
    });
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Spawns the built CLI with the title's key in PLATFORM_SECRET_KEY and STATE_HOME as its state
 * folder (unless env says otherwise); `node` adds options of Node's own (e.g. --require a fault).
 */
export function spawnCli(args: string[], env: Record<string, string | undefined> = { PLATFORM_SECRET_KEY: TITLE.secretKey }, node: string[] = []): { child: ChildProcess; done: Promise<CliRun> } {
  const child = spawn(process.execPath, [...node, CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, XDG_STATE_HOME: STATE_HOME, XDG_CONFIG_HOME: CONFIG_HOME, [CONTROL_TOKEN_ENV]: TEST_CONTROL_TOKEN, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => { stdout += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  const done = new Promise<CliRun>((res) => child.once('close', (code, signal) => res({ code, signal, stdout, stderr })));
  return { child, done };
}

export function runCli(args: string[], env?: Record<string, string | undefined>): Promise<CliRun> {
  return spawnCli(args, env).done;
}

export const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The value the dry run of `args` (a delete-players command without --dry-run/--confirm) gives for --confirm. */
export async function confirmOf(args: string[]): Promise<string> {
  const r = await runCli([...args.filter((a) => a !== '--json'), '--dry-run']);
  const m = /^To send: --confirm (\d+:[0-9a-f]+)$/m.exec(r.stdout);
  if (m === null) throw new Error(`no "To send" line in the dry run (exit ${r.code}): ${r.stderr}`);
  return m[1];
}

/**
 * A loopback pass-through in front of the emulator that counts the deletions sent for each player
 * (the emulator refuses a second deletion while one is queued, so its jobs alone cannot show a
 * second send).
 */
export class SendCounter {
  private constructor(private readonly server: Server, readonly endpoint: string, readonly sends: Map<string, number>) {}

  static async start(target: string): Promise<SendCounter> {
    const to = new URL(target);
    const sends = new Map<string, number>();
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        if (req.url?.endsWith('/Admin/DeleteMasterPlayerAccount') === true) {
          const pid = String((JSON.parse(body.toString()) as { PlatformId?: string }).PlatformId).toUpperCase();
          sends.set(pid, (sends.get(pid) ?? 0) + 1);
        }
        const headers = { ...req.headers, host: to.host };
        const up = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers }, (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        });
        up.on('error', () => res.destroy());
        up.end(body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    return new SendCounter(server, `http://127.0.0.1:${port}/{titleId}`, sends);
  }

  /** Players sent more than once since the last reset. */
  twice(): string[] {
    return [...this.sends].filter(([, n]) => n > 1).map(([pid]) => pid);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

/**
 * A mocha fixture: one emulator and a send counter in front of it for the suite, reset before
 * each test, and a fresh temp folder per test (removed after it).
 */
export function useCountingEmulator(prefix: string): { readonly emu: TestEmulator; readonly counter: SendCounter; readonly dir: string } {
  const f = {} as { emu: TestEmulator; counter: SendCounter; dir: string };
  before(async () => {
    f.emu = await TestEmulator.start();
    f.counter = await SendCounter.start(f.emu.endpoint);
  });
  after(async () => {
    await f.counter.close();
    await f.emu.close();
  });
  beforeEach(async () => {
    await f.emu.control('reset', {});
    f.counter.sends.clear();
    f.dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => rmSync(f.dir, { recursive: true, force: true }));
  return f;
}
