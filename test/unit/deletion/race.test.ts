// Races on one batch: two runs of the CLI (real processes) at once, after a kill -9, as two first
// runs, and under a symlinked name; and two "windows" (processes on the core run API, as the
// editor) resuming one batch. A pass-through counts the deletions sent per player: none twice.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { confirmOf, delay, PLAYERS, SendCounter, spawnCli, STATE_HOME, TestEmulator, TITLE, type CliRun } from './support';

/** Trials of each race: RACE_TRIALS (npm run test:fuzz sets 50), 10 in the normal unit run. */
const TRIALS = Number(process.env.RACE_TRIALS ?? '') > 0 ? Number(process.env.RACE_TRIALS) : 10;
const BATCH = 12;
const WINDOW = resolve('out/test/unit/deletion/window.js');

const intents = (path: string): number => {
  try {
    return readFileSync(path, 'utf8').split('"type":"intent"').length - 1;
  } catch {
    return 0;
  }
};

describe(`deletion: two runs of one batch at once (${TRIALS} trials of each race)`, function () {
  this.timeout(TRIALS * 30_000);
  let emu: TestEmulator;
  let counter: SendCounter;
  let root: string;
  const ids = PLAYERS.slice(0, BATCH).map((p) => p.platformId);
  before(async () => {
    emu = await TestEmulator.start();
    counter = await SendCounter.start(emu.endpoint);
    root = mkdtempSync(join(tmpdir(), 'pe-race-'));
  });
  after(async () => {
    await counter.close();
    await emu.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** A fresh emulator state and batch folder; the delete-players arguments (without --confirm) for it. */
  async function trial(name: string, n: number): Promise<{ folder: string; journal: string; args: string[] }> {
    await emu.control('reset', {});
    // Some latency, so a batch is still running when the other run starts.
    await emu.control('faults', { latencyMs: 3 + Math.floor(Math.random() * 5) });
    const folder = join(root, `${name}-${n}`);
    mkdirSync(folder, { mode: 0o700 });
    const input = join(folder, 'ids.txt');
    writeFileSync(input, ids.join('\n'));
    const journal = join(folder, 'journal.jsonl');
    return { folder, journal, args: ['delete-players', '--title', TITLE.titleId, '--endpoint', counter.endpoint, '--kind', 'platform-id', '--input', input, '--journal', journal, '--json'] };
  }

  /** Starts a batch and kills it (-9) after a random number of sends; the journal then holds unfinished players. */
  async function killedMidway(args: string[], journal: string, confirm: string): Promise<void> {
    const { child, done } = spawnCli([...args, '--confirm', confirm]);
    const after = 1 + Math.floor(Math.random() * (BATCH / 2));
    let finished = false;
    void done.then(() => { finished = true; });
    const deadline = Date.now() + 15_000;
    while (!finished && intents(journal) < after && Date.now() < deadline) await delay(1);
    child.kill('SIGKILL');
    await done;
  }

  function noneTwice(runs: CliRun[], what: string): void {
    assert.deepEqual(counter.twice(), [], `${what}: players sent twice; the runs said:\n${runs.map((r) => `${r.code} ${r.stderr}`).join('\n')}`);
    for (const r of runs) assert.ok(r.code === 0 || r.code === 1 || r.code === 2, `${what}: ${r.signal ?? r.code} ${r.stderr}`);
  }

  it('(a) two resumes started together after a kill -9: no player sent twice by them', async () => {
    let bothRan = 0;
    for (let n = 0; n < TRIALS; n++) {
      const { journal, args } = await trial('a', n);
      const confirm = await confirmOf(args);
      await killedMidway(args, journal, confirm);
      counter.sends.clear();
      const runs = await Promise.all([0, 1].map(() => spawnCli([...args, '--confirm', confirm, '--resume']).done));
      noneTwice(runs, `trial ${n}`);
      if (runs.every((r) => r.code === 0)) bothRan++;
      const refused = runs.filter((r) => r.code !== 0);
      for (const r of refused) assert.match(r.stderr, /is in use by process \d+/, `trial ${n}: a run that did not finish was refused by the lock`);
    }
    console.log(`      (a) ${TRIALS} trials; both resumes finished in ${bothRan} (one after the other), one refused by the lock in ${TRIALS - bothRan}`);
  });

  it('(b) two first runs of one batch together: no player sent twice', async () => {
    for (let n = 0; n < TRIALS; n++) {
      const { args } = await trial('b', n);
      const confirm = await confirmOf(args);
      counter.sends.clear();
      const runs = await Promise.all([0, 1].map(() => spawnCli([...args, '--confirm', confirm]).done));
      noneTwice(runs, `trial ${n}`);
      assert.equal(runs.filter((r) => r.code === 0).length, 1, `trial ${n}: exactly one run sent the batch: ${runs.map((r) => r.stderr).join(' | ')}`);
      assert.match(runs.find((r) => r.code !== 0)!.stderr, /in use by process|already exists/);
      assert.equal(counter.sends.size, BATCH);
    }
  });

  it('(c) the same journal under a symlinked name, resumed together after a kill -9: no player sent twice', async () => {
    for (let n = 0; n < TRIALS; n++) {
      const { folder, journal, args } = await trial('c', n);
      const confirm = await confirmOf(args);
      await killedMidway(args, journal, confirm);
      const other = join(folder, 'other.jsonl');
      symlinkSync(journal, other);
      counter.sends.clear();
      const linked = args.map((a) => (a === journal ? other : a));
      const runs = await Promise.all([args, linked].map((x) => spawnCli([...x, '--confirm', confirm, '--resume']).done));
      noneTwice(runs, `trial ${n}`);
      assert.match(runs[1].stderr, /other\.jsonl: the file is a symbolic link/);
    }
  });

  it('two windows (the core run API, as the editor) resuming one batch, one under a symlinked name: no player sent twice', async () => {
    for (let n = 0; n < TRIALS; n++) {
      const { folder, journal, args } = await trial('w', n);
      const confirm = await confirmOf(args);
      await killedMidway(args, journal, confirm);
      const other = join(folder, 'other.jsonl');
      symlinkSync(journal, other);
      counter.sends.clear();
      const results = await Promise.all([journal, n % 2 === 0 ? other : journal].map((path) => new Promise<string>((res) => {
        const child = spawn(process.execPath, [WINDOW, path, counter.endpoint, TITLE.titleId], {
          stdio: ['ignore', 'pipe', 'inherit'], env: { PATH: process.env.PATH, XDG_STATE_HOME: STATE_HOME, PLATFORM_SECRET_KEY: TITLE.secretKey },
        });
        let out = '';
        child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
        child.once('close', () => res(out));
      })));
      assert.deepEqual(counter.twice(), [], `trial ${n}: ${results.join(' | ')}`);
      assert.ok(results.every((r) => /"queued":12|in use by process/.test(r)), `trial ${n}: ${results.join(' | ')}`);
    }
  });
});
