/* eslint-disable @typescript-eslint/no-explicit-any -- tests read members of parsed answers freely */
// The emulator's --data folder under attack: a planted link, a hand-edited state with numbers
// that break every date (issue 22).
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../../../src/emulator/server';
import { Emu } from './harness';

describe('emulator: the --data folder', () => {
  let dir: string;
  let victim: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'emu-data-'));
    victim = mkdtempSync(join(tmpdir(), 'emu-victim-'));
    writeFileSync(join(victim, 'precious.json'), '{"mine":true}');
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(victim, { recursive: true, force: true });
  });

  it('an outbox/ that is a symlink refuses the start and deletes nothing in its target', async () => {
    symlinkSync(victim, join(dir, 'outbox'));
    await assert.rejects(startEmulator({ dataDir: dir }), /outbox folder .*outbox is a symbolic link; .*Remove the link/);
    assert.deepEqual(readdirSync(victim), ['precious.json']);
  });

  it('an outbox/ swapped for a symlink after the start: reset refuses and deletes nothing in its target', async () => {
    const emu = await Emu.start({ dataDir: dir });
    try {
      rmSync(join(dir, 'outbox'), { recursive: true });
      symlinkSync(victim, join(dir, 'outbox'));
      const r = await emu.control('reset', {});
      assert.equal(r.status, 500);
      assert.deepEqual(readdirSync(victim), ['precious.json']);
    } finally {
      rmSync(join(dir, 'outbox'));
      mkdirSync(join(dir, 'outbox'));
      await emu.close();
    }
  });

  it('a state.json that is a symlink is refused', async () => {
    const first = await Emu.start({ dataDir: dir });
    await first.close();
    renameSync(join(dir, 'state.json'), join(victim, 'state.json'));
    symlinkSync(join(victim, 'state.json'), join(dir, 'state.json'));
    await assert.rejects(startEmulator({ dataDir: dir }), /state file .*state\.json is a symbolic link/);
  });

  const edits: [string, (s: Record<string, any>) => void, RegExp][] = [
    ['a huge clockOffsetMs', (s) => { s.clockOffsetMs = 1e300; }, /clockOffsetMs is 1e\+300; it must be within ±3153600000000 \(100 years\)/],
    ['a clockOffsetMs just past 100 years', (s) => { s.clockOffsetMs = 3153600000001; }, /clockOffsetMs is 3153600000001/],
    ['a huge tokensExpiredBefore', (s) => { s.tokensExpiredBefore = 9e15; }, /tokensExpiredBefore is 9000000000000000; a time must be from 0/],
    ['a player time out of range', (s) => { Object.values<any>(s.data.players)[0].created = -1; }, /data\.players\.[0-9A-F]+\.created is -1; a time must be/],
    ['a job due at the end of time', (s) => { s.data.jobs.push({ JobReceiptId: 'A1', PlatformId: 'X', titleId: 'F71AC', TitleIds: [], createdAt: 0, dueAt: 1e20, status: 'queued' }); }, /data\.jobs\[0\]\.dueAt is 100000000000000000000/],
    ['a currency beyond safe integers', (s) => { Object.values<any>(Object.values<any>(s.data.players)[0].titles)[0].virtualCurrency.GC = 1e300; }, /virtualCurrency\.GC is 1e\+300; numbers must be within/],
  ];
  for (const [what, edit, expected] of edits) {
    it(`${what} in state.json is a start-up error naming the file and the member, not a 500 on every answer`, async () => {
      const first = await Emu.start({ dataDir: dir });
      await first.close();
      const file = join(dir, 'state.json');
      const state = JSON.parse(readFileSync(file, 'utf8'));
      edit(state);
      writeFileSync(file, JSON.stringify(state));
      await assert.rejects(startEmulator({ dataDir: dir }), (e: Error) => {
        assert.match(e.message, /The emulator state file .*state\.json is not valid: /);
        assert.match(e.message, expected);
        assert.match(e.message, /Delete it \(or use another --data directory\)/);
        return true;
      });
    });
  }
});
