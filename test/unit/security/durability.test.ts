// Emulator durability with --data: killed with SIGKILL at random moments under concurrent load, it
// restarts from a valid state file every time and keeps every deletion job it acknowledged (200).
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadState } from '../../../src/emulator/persistence';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../../src/emulator/seed';
import { checkedEmulator } from '../helpers/contract';
import { controlHeaders, rememberControlToken } from '../../../src/core/controlToken';

/** Kill cycles: DURABILITY_CYCLES (npm run test:fuzz sets more), 20 in the normal unit run. */
const CYCLES = Number(process.env.DURABILITY_CYCLES ?? '') > 0 ? Number(process.env.DURABILITY_CYCLES) : 20;
const WORKERS = 6;
const EMULATOR = resolve('dist/emulator.js');
const TITLE = DEMO_TITLES[0];

interface Running {
  proc: ChildProcess;
  origin: string;
  exited: Promise<void>;
}

/** Starts the built emulator CLI on DIR and waits for its --json line. */
async function startCli(dir: string): Promise<Running> {
  const proc = spawn(process.execPath, [EMULATOR, '--port', '0', '--data', dir, '--seed', 'demo', '--fixed-keys', '--json', '--deletion-delay', '600000'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  const line = await new Promise<string>((res, rej) => {
    let out = '';
    const timer = setTimeout(() => rej(new Error(`the emulator did not start within 10 s: ${stderr}`)), 10_000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        res(out.slice(0, nl));
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`the emulator exited with ${code} before starting: ${stderr}`));
    });
  });
  const info = JSON.parse(line) as { endpoint: string; controlToken: string };
  const origin = new URL(info.endpoint.replace('{titleId}', 'x')).origin;
  rememberControlToken(origin, info.controlToken);
  return { proc, origin, exited };
}

async function post(origin: string, path: string, body: unknown, key?: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(origin + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key === undefined ? controlHeaders(origin) : { 'x-secretkey': key }) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function jobsOf(origin: string): Promise<Map<string, string>> {
  const res = await fetch(`${origin}/_emulator/jobs`, { headers: controlHeaders(origin), signal: AbortSignal.timeout(5000) });
  const { jobs } = (await res.json()) as { jobs: { JobReceiptId: string; PlatformId: string }[] };
  return new Map(jobs.map((j) => [j.JobReceiptId, j.PlatformId]));
}

describe(`security: emulator durability (${CYCLES} kill -9 cycles under load)`, function () {
  this.timeout(Math.max(60_000, CYCLES * 5000));
  let dir: string;
  let running: Running | undefined;

  before(function () {
    if (!existsSync(EMULATOR)) {
      assert.fail(`${EMULATOR} is missing: run node esbuild.mjs first`);
    }
    dir = mkdtempSync(join(tmpdir(), 'emu-durable-'));
  });
  after(async () => {
    if (running && running.proc.exitCode === null && running.proc.signalCode === null) {
      running.proc.kill('SIGKILL');
      await running.exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('restarts with a valid state file every time and loses no acknowledged deletion', async () => {
    /** Acknowledged deletions: JobReceiptId -> PlatformId. */
    const acked = new Map<string, string>();
    let rejectedDuringLoad = 0;
    let leftoverTempFiles = 0;
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      running = await startCli(dir);
      const { origin } = running;
      // Temp files of the killed process are cleaned up at start.
      const temp = [...readdirSync(dir), ...readdirSync(join(dir, 'outbox'))].filter((f) => f.endsWith('.tmp'));
      assert.deepEqual(temp, [], `cycle ${cycle}: temp files left from the killed emulator`);
      // Everything acknowledged before any earlier kill is still there, for the same player.
      const jobs = await jobsOf(origin);
      for (const [receipt, platformId] of acked) {
        assert.equal(jobs.get(receipt), platformId, `cycle ${cycle}: acknowledged job ${receipt} lost`);
      }
      let killed = false;
      const worker = async (w: number): Promise<void> => {
        for (let n = 0; !killed && n < 1000; n++) {
          try {
            // A new account each time (a state write), then its deletion (flushed before the 200).
            const subject = `durable-${cycle}-${w}-${n}`;
            const t = await post(origin, '/_emulator/launcher-token', { titleId: TITLE.titleId, subject });
            const login = await post(origin, `/${TITLE.titleId}/Server/LoginWithLauncher`, { IdentityToken: t.json.IdentityToken, CreateAccount: true }, TITLE.secretKey);
            const platformId = (login.json.data as { PlatformId?: string } | undefined)?.PlatformId;
            if (login.status !== 200 || platformId === undefined) continue;
            const del = await post(origin, `/${TITLE.titleId}/Admin/DeleteMasterPlayerAccount`, { PlatformId: platformId }, TITLE.secretKey);
            if (del.status === 200) {
              acked.set((del.json.data as { JobReceiptId: string }).JobReceiptId, platformId);
            }
          } catch {
            // The emulator was killed mid-request: nothing was acknowledged.
            rejectedDuringLoad++;
          }
        }
      };
      const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
      // A random moment within the load: while accounts are being written and deletions flushed.
      await new Promise((r) => setTimeout(r, 20 + Math.floor(Math.random() * 250)));
      killed = true;
      running.proc.kill('SIGKILL');
      await running.exited;
      await load;
      // The state file on disk is whole and loadable after every kill.
      const text = readFileSync(join(dir, 'state.json'), 'utf8');
      assert.doesNotThrow(() => JSON.parse(text), `cycle ${cycle}: state.json is not valid JSON`);
      assert.ok(loadState(dir) !== undefined, `cycle ${cycle}: no state`);
      leftoverTempFiles += readdirSync(dir).filter((f) => f.endsWith('.tmp')).length;
    }
    // A last restart: every acknowledged job is there, each exactly once.
    running = await startCli(dir);
    const jobs = await jobsOf(running.origin);
    for (const [receipt, platformId] of acked) {
      assert.equal(jobs.get(receipt), platformId, `acknowledged job ${receipt} lost`);
    }
    const perPlayer = new Map<string, number>();
    for (const p of jobs.values()) perPlayer.set(p, (perPlayer.get(p) ?? 0) + 1);
    assert.ok([...perPlayer.values()].every((n) => n === 1), 'a player has two deletion jobs');
    running.proc.kill('SIGTERM');
    await running.exited;
    assert.ok(acked.size >= CYCLES, `only ${acked.size} deletions acknowledged in ${CYCLES} cycles: the load did not run`);
    console.log(`      ${CYCLES} kill -9 cycles, ${acked.size} acknowledged deletions kept, ${rejectedDuringLoad} requests cut off, ${leftoverTempFiles} temp files left by kills (then cleaned)`);
  });

  it('concurrent deletes of the same player, through both titles: exactly one succeeds, and it persists', async () => {
    const data = mkdtempSync(join(tmpdir(), 'emu-race-'));
    const victims = DEMO_PLAYERS.filter((p) => !p.banned).slice(0, 10);
    try {
      let emu = await checkedEmulator({ dataDir: data, deletionDelayMs: 600_000 });
      let winners: string[];
      try {
        const results = await Promise.all(victims.map((p) => Promise.all(Array.from({ length: 8 }, (_, i) => {
          const title = DEMO_TITLES[i % 2];
          return post(emu.origin, `/${title.titleId}/Admin/DeleteMasterPlayerAccount`, { PlatformId: p.platformId }, title.secretKey);
        }))));
        winners = [];
        results.forEach((answers, i) => {
          const ok = answers.filter((a) => a.status === 200);
          assert.equal(ok.length, 1, `${victims[i].platformId}: ${ok.length} deletes succeeded`);
          for (const a of answers.filter((x) => x.status !== 200)) {
            assert.equal(a.status, 400);
            assert.match(JSON.stringify(a.json.errorDetails), /already queued/);
          }
          winners.push((ok[0].json.data as { JobReceiptId: string }).JobReceiptId);
        });
      } finally {
        await emu.close();
      }
      emu = await checkedEmulator({ dataDir: data, deletionDelayMs: 600_000 });
      try {
        const jobs = await jobsOf(emu.origin);
        assert.deepEqual([...jobs.keys()].sort(), [...winners].sort());
        assert.deepEqual([...jobs.values()].sort(), victims.map((p) => p.platformId).sort());
      } finally {
        await emu.close();
      }
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
