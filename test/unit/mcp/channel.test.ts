// The channel between the extension and the MCP server it starts: the server records each call
// there (not on stderr) and reads deletion jobs from it, only jobs of titles it may read; a
// process without the channel's token is cut off before anything it sends is read.
import * as assert from 'node:assert/strict';
import { createConnection } from 'node:net';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../../src/emulator/seed';
import type { EmulatorHandle } from '../../../src/emulator/server';
import type { LedgerEntry } from '../../../src/core/deletion/types';
import { CHANNEL_ENV, hostChannel, type ChannelHost, type ToolCallRecord } from '../../../src/core/tools/channel';
import { checkedEmulator } from '../helpers/contract';
import { call, connect } from './support';

const [RACER, ARENA] = DEMO_TITLES;
const job = (titleId: string, platformId: string): LedgerEntry => ({
  input: platformId, platformId, titleId, titleIds: [titleId], jobReceiptId: `r-${platformId}`, requestedAt: '2026-01-02T03:04:05.000Z', state: 'queued',
});

describe('mcp: the editor\'s channel', function () {
  this.timeout(60_000);
  let emu: EmulatorHandle;
  let host: ChannelHost;
  const calls: ToolCallRecord[] = [];
  before(async () => {
    emu = await checkedEmulator({ seed: 'demo', fixedKeys: true });
    host = await hostChannel({
      onCall: (r) => calls.push(r),
      jobs: (titleId) => [job(RACER.titleId, '9437A5ADDAE3012D'), job(ARENA.titleId, '1111222233334444')].filter((j) => !titleId || j.titleId === titleId),
    });
  });
  after(async () => {
    await host?.close();
    await emu?.close();
  });

  it('records every call over the channel, not on stderr, and lists only the jobs of titles it may read', async () => {
    const s = await connect([], { ...host.env, [`PLATFORM_SECRET_KEY_${RACER.titleId}`]: RACER.secretKey, [`PLATFORM_ENDPOINT_${RACER.titleId}`]: emu.endpoint });
    try {
      const jobs = await call(s, 'list_deletion_jobs', {});
      assert.deepEqual(jobs.json.serviceData.deletionJobs.map((j: { TitleId: string; State: string }) => [j.TitleId, j.State]), [[RACER.titleId, 'queued']]);
      const refused = await call(s, 'list_deletion_jobs', { titleId: ARENA.titleId });
      assert.equal(refused.isError, true);
      await call(s, 'get_played_titles', { platformId: DEMO_PLAYERS[0].platformId });
      const deadline = Date.now() + 5000;
      while (calls.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(calls.map((c) => [c.tool, c.titleId, c.outcome, c.operations.join()]), [
        ['list_deletion_jobs', undefined, 'succeeded', ''],
        ['list_deletion_jobs', ARENA.titleId, 'failed', ''],
        ['get_played_titles', RACER.titleId, 'succeeded', 'GetPlayedTitleList'],
      ]);
      assert.ok(!s.stderr().includes('mcp: '), s.stderr());
    } finally {
      await s.close();
    }
  });

  it('a connection without the token is closed without an answer', async () => {
    const socket = createConnection(host.env[CHANNEL_ENV]);
    let answered = '';
    socket.on('data', (d) => { answered += d.toString(); });
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.write(`${JSON.stringify({ type: 'hello', token: 'guess' })}\n${JSON.stringify({ type: 'jobs', id: 1 })}\n`);
    await closed;
    assert.equal(answered, '');
  });
});
