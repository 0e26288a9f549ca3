// A journal rolled back or swapped, attacked through real CLI runs: cut back to an earlier prefix
// (at a line or mid-line), an older copy put back, lines duplicated, swapped or dropped, copies of
// one batch in other folders (resumed after it moved on, or at the same time), a planted journal of
// another batch or title, or MAC'd with another title's key, a symlinked anchor, lock or anchor
// folder, and a fresh machine. The emulator's request log counts the deletions sent per PlatformId.
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Journal, JOURNAL_VERSION } from '../../../src/core/deletion';
import { DEMO_TITLES } from '../../../src/emulator/seed';
import { CLI_ANCHORS, confirmOf, delay, PLAYERS, runCli, spawnCli, STATE_HOME, TITLE, useCountingEmulator, type CliRun } from './support';

/** Trials: RACE_TRIALS (npm run test:fuzz sets 50), 10 in the normal unit run. */
const TRIALS = Number(process.env.RACE_TRIALS ?? '') > 0 ? Number(process.env.RACE_TRIALS) : 10;
const BATCH = 8;
const ANCHORS = join(STATE_HOME, 'platform-explorer', 'anchors');

const lines = (path: string): string[] => readFileSync(path, 'utf8').split('\n').slice(0, -1);
const intents = (path: string): number => {
  try {
    return readFileSync(path, 'utf8').split('"type":"intent"').length - 1;
  } catch {
    return 0;
  }
};

/** Players with an intent and no outcome in a journal (sent, or about to be, when it stopped). */
function unanswered(path: string): Set<string> {
  const out = new Set<string>();
  for (const l of lines(path).slice(1)) {
    const r = JSON.parse(l) as { type: string; platformId: string };
    if (r.type === 'intent') out.add(r.platformId);
    else out.delete(r.platformId);
  }
  return out;
}

describe(`deletion: a journal rolled back or swapped is never resumed (${TRIALS} trials of each)`, function () {
  this.timeout(TRIALS * 40_000);
  const f = useCountingEmulator('pe-rollback-');
  const ids = PLAYERS.slice(0, BATCH).map((p) => p.platformId);
  let n = 0;

  /** A batch folder with its list; the delete-players arguments (without --confirm) for `journal` in it. */
  function batch(folder = join(f.dir, `b${n++}`)): { folder: string; journal: string; args: string[] } {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    writeFileSync(join(folder, 'ids.txt'), ids.join('\n'));
    const journal = join(folder, 'journal.jsonl');
    return { folder, journal, args: ['delete-players', '--title', TITLE.titleId, '--endpoint', f.emu.endpoint, '--kind', 'platform-id', '--input', join(folder, 'ids.txt'), '--journal', journal] };
  }

  /** Runs a batch to its end, copying its journal as it was after `copyAt` sends (the older copy). */
  async function runWithCopy(args: string[], journal: string, confirm: string, copyAt: number): Promise<string> {
    const { done } = spawnCli([...args, '--confirm', confirm]);
    let finished = false;
    void done.then(() => { finished = true; });
    while (!finished && intents(journal) < copyAt) await delay(1);
    const older = readFileSync(journal, 'utf8');
    const r = await done;
    assert.equal(r.code, 0, r.stderr);
    return older;
  }

  /** Every player sent at most once since the sends were cleared, but those in `twice` (in flight at a kill) at most twice. */
  async function sendsAtMost(what: string, twice: ReadonlySet<string> = new Set()): Promise<void> {
    const sends = await f.emu.sends();
    assert.deepEqual([...sends].filter(([pid, k]) => k > (twice.has(pid) ? 2 : 1)), [], `${what}: players sent more than once (in flight at a kill: ${[...twice].join(' ')})`);
  }

  it('cut back to an earlier prefix (at a line or mid-line) or an older copy put back: refused, the file unchanged, nothing sent', async () => {
    const seen = { prefix: 0, midLine: 0, older: 0 };
    for (let t = 0; t < TRIALS; t++) {
      await f.emu.control('reset', {});
      await f.emu.control('faults', { latencyMs: 5 });
      await f.emu.clearSends();
      const { journal, args } = batch();
      const confirm = await confirmOf(args);
      const older = await runWithCopy(args, journal, confirm, 1 + Math.floor(Math.random() * (BATCH - 1)));
      const full = readFileSync(journal, 'utf8');
      const all = lines(journal);
      // An older copy taken as the run ended is no older: cut that one back instead.
      const attack = t % 3 === 2 && older.split('\n').length - 1 >= all.length ? 0 : t % 3;
      if (attack === 0) {
        writeFileSync(journal, `${all.slice(0, 1 + Math.floor(Math.random() * (all.length - 1))).join('\n')}\n`);
        seen.prefix++;
      } else if (attack === 1) {
        truncateSync(journal, Math.floor(Math.random() * (full.length - 1)) + 1);
        seen.midLine++;
      } else {
        writeFileSync(journal, older);
        seen.older++;
      }
      const planted = readFileSync(journal, 'utf8');
      // Only a cut in the batch record itself leaves nothing to resume; every other is behind its anchor.
      const expect = planted.includes('\n') ? /is behind its anchor: it holds \d+ records, but batch [0-9a-f-]{36} reached \d+ on this machine.*Nothing was sent/ : /holds no complete batch record|there is no journal/;
      await f.emu.clearSends();
      for (const more of [['--dry-run'], ['--confirm', confirm]]) {
        const r = await runCli([...args, '--resume', ...more]);
        assert.notEqual(r.code, 0, `trial ${t} (${more[0]}): ${r.stderr}`);
        assert.match(r.stderr, expect, `trial ${t}`);
      }
      const v = await runCli(['verify-deletions', '--title', TITLE.titleId, '--endpoint', f.emu.endpoint, '--journal', journal]);
      assert.notEqual(v.code, 0);
      assert.equal(readFileSync(journal, 'utf8'), planted, `trial ${t}: the refused journal is not changed`);
      assert.equal((await f.emu.sends()).size, 0, `trial ${t}: nothing sent after the roll-back`);
      // A later batch of the same players in that folder: the cut journal is named and nothing is sent.
      const next = await runCli([...args.map((a) => (a === journal ? join(journal, '..', 'next.jsonl') : a)), '--confirm', confirm]);
      assert.notEqual(next.code, 0, next.stderr);
      assert.equal((await f.emu.sends()).size, 0, `trial ${t}: a new batch beside the cut journal sent nothing`);
    }
    console.log(`      ${TRIALS} trials: ${seen.prefix} cut at a line, ${seen.midLine} cut mid-line, ${seen.older} older copies: 0 sends after each`);
  });

  it('a line duplicated, two swapped, or one dropped in the middle: refused by the MAC chain, nothing sent', async () => {
    const { journal, args } = batch();
    const confirm = await confirmOf(args);
    assert.equal((await runCli([...args, '--confirm', confirm])).code, 0);
    const all = lines(journal);
    await f.emu.clearSends();
    let tried = 0;
    for (let t = 0; t < TRIALS; t++) {
      const i = 1 + Math.floor(Math.random() * (all.length - 2));
      const edits = [
        [...all.slice(0, i + 1), all[i], ...all.slice(i + 1)],
        [...all.slice(0, i), all[i + 1], all[i], ...all.slice(i + 2)],
        [...all.slice(0, i), ...all.slice(i + 1)],
      ];
      for (const e of edits) {
        writeFileSync(journal, `${e.join('\n')}\n`);
        const r = await runCli([...args, '--resume', '--confirm', confirm]);
        assert.equal(r.code, 1, r.stderr);
        assert.match(r.stderr, /Line \d+ of the journal .* has no valid MAC.*a line before it dropped.*Nothing was sent/);
        tried++;
      }
    }
    assert.equal((await f.emu.sends()).size, 0);
    console.log(`      ${tried} edits (duplicate, swap, drop at random lines): each refused, 0 sends`);
  });

  it('copies of one batch: two resumed at once never both send; one resumed after the other moved on is refused', async () => {
    const why = { held: 0, behind: 0 };
    for (let t = 0; t < TRIALS; t++) {
      await f.emu.control('reset', {});
      await f.emu.control('faults', { latencyMs: 4 });
      await f.emu.clearSends();
      const { folder, journal, args } = batch();
      const confirm = await confirmOf(args);
      // Killed mid-way, then copied into another folder (as a user might, or a sync tool).
      const { child, done } = spawnCli([...args, '--confirm', confirm]);
      const after = 1 + Math.floor(Math.random() * (BATCH / 2));
      while (intents(journal) < after && child.exitCode === null) await delay(1);
      child.kill('SIGKILL');
      await done;
      // Sent without a recorded answer when killed: a confirmed resume sends these again (the service refuses a second deletion).
      const inFlight = unanswered(journal);
      const other = join(folder, 'copy');
      mkdirSync(other, { mode: 0o700 });
      const copy = join(other, 'journal.jsonl');
      copyFileSync(journal, copy);
      const runs: CliRun[] = await Promise.all([journal, copy].map((j) => runCli([...args.map((a) => (a === journal ? j : a)), '--resume', '--confirm', confirm])));
      assert.equal(runs.filter((r) => r.code === 0).length, 1, `trial ${t}: exactly one copy sends: ${runs.map((r) => r.stderr).join(' | ')}`);
      const refused = runs.find((r) => r.code !== 0)!.stderr;
      assert.match(refused, /in use by process \d+, under another copy or name of its journal|is behind its anchor/);
      if (/in use by process/.test(refused)) why.held++;
      else why.behind++;
      // Whichever finished the batch, the other copy is behind it: never sent again.
      for (const j of [journal, copy]) await runCli([...args.map((a) => (a === journal ? j : a)), '--resume', '--confirm', confirm]);
      await sendsAtMost(`trial ${t}`, inFlight);
    }
    console.log(`      ${TRIALS} trials: the second copy refused while the first ran in ${why.held}, as behind its anchor after it in ${why.behind}; no player sent twice but those in flight at the kill`);
  });

  it('a planted journal of another batch, another title, or MAC\'d with another title\'s key: refused, nothing sent', async () => {
    const a = batch();
    const confirm = await confirmOf(a.args);
    const b = batch();
    writeFileSync(join(b.folder, 'ids.txt'), ids.slice(0, 3).join('\n'));
    assert.equal((await runCli([...b.args, '--confirm', await confirmOf(b.args)])).code, 0);
    await f.emu.control('reset', {});
    await f.emu.clearSends();
    // Another batch's journal at --journal: --resume names that batch, and this batch's --confirm does not match it.
    copyFileSync(b.journal, a.journal);
    const other = await runCli([...a.args, '--resume', '--confirm', confirm]);
    assert.equal(other.code, 2, other.stderr);
    assert.match(other.stderr, /--confirm does not match this journal's batch/);
    rmSync(a.journal);
    // Another title's journal, and a journal claiming another title MAC'd with this title's key.
    const OTHER = DEMO_TITLES[1];
    const entries = ids.map((platformId, i) => ({ line: i + 1, input: platformId, platformId, status: 'delete' as const }));
    const plant = async (key: string, titleId: string): Promise<void> => {
      rmSync(a.journal, { force: true });
      const j = await Journal.open(a.journal, { key, anchors: CLI_ANCHORS, create: { type: 'batch', version: JOURNAL_VERSION, batchId: `planted-${n++}`, titleId, kind: 'platform-id', createdAt: new Date().toISOString(), entries } });
      await j.close();
    };
    const asOther = (...more: string[]): Promise<CliRun> => runCli([...a.args.map((x) => (x === TITLE.titleId ? OTHER.titleId : x)), '--resume', ...more], { PLATFORM_SECRET_KEY: OTHER.secretKey });
    // Another title's own journal: this title's key does not authenticate it.
    await plant(OTHER.secretKey, OTHER.titleId);
    let r = await runCli([...a.args, '--resume', '--confirm', confirm]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /Line 1 of the journal .* has no valid MAC/);
    // A journal that names the other title but is MAC'd with this title's key: refused under either title.
    await plant(TITLE.secretKey, OTHER.titleId);
    r = await runCli([...a.args, '--resume', '--confirm', confirm]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`belongs to a batch of title ${OTHER.titleId}`));
    r = await asOther('--dry-run');
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /Line 1 of the journal .* has no valid MAC/, 'the other title\'s key does not authenticate it');
    assert.equal((await f.emu.sends()).size, 0);
  });

  it('a symlinked anchor, anchor folder or lock, and a fresh machine', async () => {
    const { folder, journal, args } = batch();
    const confirm = await confirmOf(args);
    const { child, done } = spawnCli([...args, '--confirm', confirm]);
    while (intents(journal) < 2 && child.exitCode === null) await delay(1);
    child.kill('SIGKILL');
    await done;
    const batchId = (JSON.parse(lines(journal)[0]) as { batchId: string }).batchId;
    const anchor = join(ANCHORS, `${batchId}.json`);
    const victim = join(folder, 'victim.txt');
    writeFileSync(victim, 'keep me\n', { mode: 0o600 });
    const kept = readFileSync(anchor, 'utf8');
    await f.emu.clearSends();
    // The anchor replaced by a link (to a file of the attacker's choosing).
    rmSync(anchor);
    symlinkSync(victim, anchor);
    let r = await runCli([...args, '--resume', '--confirm', confirm]);
    assert.equal(r.code, 1, r.stderr);
    // (Paths under a temp folder with capitals may be masked in the terminal as token-like: matched loosely.)
    assert.match(r.stderr, new RegExp(`The anchor \\S+\\.json of batch ${batchId} is a symbolic link.*nothing was sent`));
    rmSync(anchor);
    writeFileSync(anchor, kept, { mode: 0o600 });
    // The whole anchor folder a link: another state folder whose anchors folder leads elsewhere.
    const linkedState = join(folder, 'state');
    mkdirSync(join(linkedState, 'platform-explorer'), { recursive: true, mode: 0o700 });
    symlinkSync(ANCHORS, join(linkedState, 'platform-explorer', 'anchors'));
    r = await runCli([...args, '--resume', '--confirm', confirm], { PLATFORM_SECRET_KEY: TITLE.secretKey, XDG_STATE_HOME: linkedState });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /The journals' anchor folder .* is a symbolic link/);
    // The journal's lock a link to a file: never written through.
    const lock = `${realpathSync(journal)}.lock`;
    // (In place of the lock the killed run left.)
    rmSync(lock, { force: true });
    symlinkSync(victim, lock);
    r = await runCli([...args, '--resume', '--dry-run']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(victim, 'utf8'), 'keep me\n', 'nothing written through the lock\'s link');
    rmSync(lock, { force: true });
    assert.equal((await f.emu.sends()).size, 0);
    // A fresh machine (no anchors): refused until the user says it is the newest copy (issue 29;
    // it was resumed with a line on stderr); then resumed, saying so, and anchored.
    const fresh = join(folder, 'fresh-state');
    r = await runCli([...args, '--resume', '--confirm', confirm], { PLATFORM_SECRET_KEY: TITLE.secretKey, XDG_STATE_HOME: fresh });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /has no anchor in \S+ \(no batch was ever anchored there: a new machine, another HOME or XDG_STATE_HOME \(sudo\), or its anchors were removed\).* resume it with --no-anchor/);
    assert.equal((await f.emu.sends()).size, 0, 'nothing sent without --no-anchor');
    r = await runCli([...args, '--resume', '--confirm', confirm, '--no-anchor'], { PLATFORM_SECRET_KEY: TITLE.secretKey, XDG_STATE_HOME: fresh });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`Batch ${batchId} has no anchor in \\S+ \\(the journal \\S+ was never opened on this machine.*could not be checked for being cut back or replaced by an older copy`));
    assert.ok(readdirSync(join(fresh, 'platform-explorer', 'anchors')).includes(`${batchId}.json`));
    await sendsAtMost('fresh machine');
  });
  it('a journal deleted from its folder: a new batch there names it and sends nothing until it is restored or its anchor removed', async () => {
    const { journal, args } = batch();
    const confirm = await confirmOf(args);
    assert.equal((await runCli([...args, '--confirm', confirm])).code, 0);
    const batchId = (JSON.parse(lines(journal)[0]) as { batchId: string }).batchId;
    const kept = readFileSync(journal, 'utf8');
    rmSync(journal);
    await f.emu.clearSends();
    const next = args.map((a) => (a === journal ? join(journal, '..', 'next.jsonl') : a));
    const dry = await runCli([...next, '--dry-run']);
    assert.equal(dry.code, 1, dry.stderr);
    assert.match(dry.stderr, new RegExp(`journal\\.jsonl \\(batch ${batchId} reached ${BATCH * 2 + 1} records there, and its journal is gone or holds less; restore it, or if its players are known, remove its anchor`));
    assert.equal((await runCli([...next, '--confirm', confirm])).code, 1);
    assert.equal((await f.emu.sends()).size, 0, 'nothing sent while a journal of the folder is missing');
    writeFileSync(journal, kept, { mode: 0o600 });
    const again = await runCli([...next, '--dry-run']);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, new RegExp(`To delete: 0 · Already queued: ${BATCH}`));
  });
});
