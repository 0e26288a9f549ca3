// kill -9 of the CLI running a batch, at random moments, then the same command again until it
// finishes: the emulator's jobs show every player exactly once, and every receipt the journal
// acknowledged is the emulator's receipt for that player.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal, ledgerFromJournal } from '../../../src/core/deletion';
import { CLI_ANCHORS, confirmOf, delay, PLAYERS, spawnCli, TestEmulator, TITLE } from './support';

/** Kill cycles: DURABILITY_CYCLES (npm run test:fuzz sets more), 20 in the normal unit run. */
const CYCLES = Number(process.env.DURABILITY_CYCLES ?? '') > 0 ? Number(process.env.DURABILITY_CYCLES) : 20;
const BATCH = 30;

/** Records of one type in a journal file so far (0 when it does not exist yet). */
function count(path: string, type: string): number {
  try {
    return readFileSync(path, 'utf8').split(`"type":"${type}"`).length - 1;
  } catch {
    return 0;
  }
}
const intents = (path: string): number => count(path, 'intent');
const outcomes = (path: string): number => count(path, 'outcome');

describe('deletion: kill -9 and resume', function () {
  this.timeout(CYCLES * 20_000);
  let emu: TestEmulator;
  let dir: string;
  before(async () => { emu = await TestEmulator.start(); });
  after(async () => {
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`${CYCLES} batches of ${BATCH}, each killed at a random moment and resumed: every player deleted exactly once, no receipt lost`, async () => {
    dir = mkdtempSync(join(tmpdir(), 'pe-kill-'));
    const ids = PLAYERS.slice(0, BATCH).map((p) => p.platformId);
    const input = join(dir, 'ids.txt');
    writeFileSync(input, ids.join('\n'));
    let killsDuringSends = 0;
    let killsInFlight = 0;
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      await emu.control('reset', {});
      // Some latency so a batch takes long enough to be killed mid-way.
      await emu.control('faults', { latencyMs: 5 + Math.floor(Math.random() * 10) });
      // A folder per batch: earlier batches' journals in a folder are its ledger of queued players.
      const folder = join(dir, `cycle-${cycle}`);
      mkdirSync(folder, { mode: 0o700 });
      const journal = join(folder, 'journal.jsonl');
      const args = ['delete-players', '--title', TITLE.titleId, '--endpoint', emu.endpoint, '--kind', 'platform-id', '--input', input, '--journal', journal, '--json'];
      const confirm = await confirmOf(args);
      for (let attempt = 0; attempt < 12; attempt++) {
        // Once the journal exists, the same command with --resume continues it.
        const { child, done } = spawnCli([...args, '--confirm', confirm, ...(existsSync(journal) ? ['--resume'] : [])]);
        if (attempt < 3) {
          // A random moment: after a random number of sends (read from the journal), or at a random time.
          const afterSends = attempt === 1 ? undefined : 1 + Math.floor(Math.random() * (BATCH - 1));
          const deadline = Date.now() + (afterSends === undefined ? 50 + Math.random() * 1500 : 15_000);
          let finished = false;
          void done.then(() => { finished = true; });
          while (!finished && Date.now() < deadline && (afterSends === undefined || intents(journal) < afterSends)) await delay(1);
          if (!finished && child.exitCode === null && child.signalCode === null) {
            child.kill('SIGKILL');
            await done;
            const sent = intents(journal);
            if (sent > 0 && sent < BATCH) killsDuringSends++;
            if (sent > outcomes(journal)) killsInFlight++;
          }
        }
        const r = await done;
        if (r.signal === 'SIGKILL') continue;
        assert.equal(r.code, 0, `cycle ${cycle}: ${r.stderr}`);
        break;
      }
      const jobs = await emu.jobs();
      const perPlayer = new Map<string, number>();
      for (const j of jobs) perPlayer.set(j.PlatformId, (perPlayer.get(j.PlatformId) ?? 0) + 1);
      assert.deepEqual([...perPlayer.keys()].sort(), [...ids].sort(), `cycle ${cycle}: every player has a job`);
      assert.ok([...perPlayer.values()].every((n) => n === 1), `cycle ${cycle}: no player deleted twice`);
      const j = await Journal.open(journal, { key: TITLE.secretKey, anchors: CLI_ANCHORS });
      const entries = ledgerFromJournal(j.batch, j.players());
      await j.close();
      assert.equal(entries.length, BATCH);
      for (const e of entries) {
        assert.equal(e.state, 'queued', `cycle ${cycle}: ${e.platformId} ${e.state} ${e.error ?? ''}`);
        const job = jobs.find((x) => x.PlatformId === e.platformId)!;
        assert.equal(e.jobReceiptId, job.JobReceiptId, `cycle ${cycle}: the receipt of ${e.platformId} is kept`);
      }
    }
    assert.ok(killsDuringSends >= CYCLES / 2, `kills that landed while deletions were being sent: ${killsDuringSends}`);
    console.log(`      (${killsDuringSends} kills mid-batch, ${killsInFlight} with a deletion sent and its outcome not yet written)`);
  });
});
