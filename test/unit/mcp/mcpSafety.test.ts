// `platform-explorer mcp` against hostile or careless input (issue 29): a JSON-RPC line over 10 MiB,
// or one that is not JSON-RPC, is answered with a JSON-RPC error and the server keeps serving (it
// used to exit 0 without a word); and `--title X` serves X alone, whatever other
// PLATFORM_SECRET_KEY_<ID> the environment holds.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { titlesFromEnv } from '../../../src/cli/mcp';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../../src/emulator/seed';
import type { EmulatorHandle } from '../../../src/emulator/server';
import { checkedEmulator } from '../helpers/contract';
import { call, CLI, connect } from './support';

const [RACER, ARENA] = DEMO_TITLES;
const PLAYER = DEMO_PLAYERS.find((p) => p.playedTitles.includes(ARENA.titleId) && p.playedTitles.includes(RACER.titleId))!;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Message = any;

describe('mcp: oversized and unreadable lines, and --title with other keys around', function () {
  this.timeout(60_000);
  let emu: EmulatorHandle;
  before(async () => { emu = await checkedEmulator({ seed: 'demo' }); });
  after(async () => { await emu?.close(); });

  /** The server as a raw child process: lines in, each JSON line out collected. */
  function raw(): { child: ChildProcessWithoutNullStreams; next(pred: (m: Message) => boolean): Promise<Message>; send(s: string): void; exited: Promise<number | null>; stderr(): string } {
    const child = spawn(process.execPath, [CLI, 'mcp', '--title', RACER.titleId, '--endpoint', emu.endpoint], { env: { PATH: process.env.PATH ?? '', PLATFORM_SECRET_KEY: RACER.secretKey } });
    const messages: Message[] = [];
    let buf = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString('utf8');
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        messages.push(JSON.parse(buf.slice(0, i)));
        buf = buf.slice(i + 1);
      }
    });
    child.stderr.on('data', (d: Buffer) => { err += d.toString('utf8'); });
    // A server that exited (the old transport did, on a long line) closes the pipe: the test then fails on the answer it did not get.
    child.stdin.on('error', () => undefined);
    const exited = new Promise<number | null>((res) => child.once('close', res));
    let gone = false;
    void exited.then(() => { gone = true; });
    return {
      child, exited, stderr: () => err,
      send: (s) => void child.stdin.write(s),
      next: async (pred) => {
        for (let i = 0; i < 600; i++) {
          const at = messages.findIndex(pred);
          if (at >= 0) return messages.splice(at, 1)[0];
          if (gone) throw new Error(`the server exited before answering; stderr: ${err}`);
          await new Promise((r) => setTimeout(r, 50));
        }
        throw new Error(`no answer; stderr: ${err}`);
      },
    };
  }

  it('an 11 MB line is answered with a JSON-RPC error, so is a line that is not JSON-RPC; the next call is served', async () => {
    const s = raw();
    try {
      s.send(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`);
      assert.equal((await s.next((m) => m.id === 1)).result.serverInfo.name, 'platform-explorer');
      s.send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      // 11 MB in pieces, as a pipe delivers it.
      const big = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { pad: 'x'.repeat(11 * 1024 * 1024) } });
      for (let i = 0; i < big.length; i += 1024 * 1024) s.send(big.slice(i, i + 1024 * 1024));
      s.send('\n');
      const tooLong = await s.next((m) => m.error !== undefined);
      assert.equal(tooLong.error.code, -32600);
      assert.match(tooLong.error.message, /its line is longer than 10485760 bytes \(115\d{5} bytes\)\. Send smaller messages; this server goes on serving\./);
      s.send('{"jsonrpc": "2.0", "id": 3, "method": \n');
      assert.equal((await s.next((m) => m.error !== undefined)).error.code, -32700);
      s.send('{"not": "json-rpc"}\n');
      assert.equal((await s.next((m) => m.error !== undefined)).error.code, -32600);
      s.send(`${JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get_played_titles', arguments: { platformId: PLAYER.platformId } } })}\n`);
      const answer = await s.next((m) => m.id === 4);
      const data = JSON.parse(answer.result.content[0].text);
      assert.deepEqual([...data.serviceData.playedTitleIds].sort(), [...PLAYER.playedTitles].sort());
      assert.match(s.stderr(), /platform-explorer mcp: The message was not read/);
      s.child.stdin.end();
      assert.equal(await s.exited, 0);
    } finally {
      s.child.kill();
    }
  });

  it('--title X serves X alone: the other titles\' keys in the environment are neither used nor kept', async () => {
    const env: NodeJS.ProcessEnv = { [`PLATFORM_SECRET_KEY_${RACER.titleId}`]: RACER.secretKey, [`PLATFORM_SECRET_KEY_${ARENA.titleId}`]: ARENA.secretKey, PLATFORM_SECRET_KEY_C3A5E: 'another' };
    const titles = titlesFromEnv({ titleId: RACER.titleId, endpoint: emu.endpoint }, env);
    assert.deepEqual(titles, [{ titleId: RACER.titleId, key: RACER.secretKey, endpoint: emu.endpoint }]);
    assert.deepEqual(Object.keys(env), [], 'every key is taken out of the environment');
    const s = await connect(['--title', RACER.titleId, '--endpoint', emu.endpoint], { [`PLATFORM_SECRET_KEY_${RACER.titleId}`]: RACER.secretKey, [`PLATFORM_SECRET_KEY_${ARENA.titleId}`]: ARENA.secretKey });
    try {
      const other = await call(s, 'get_played_titles', { titleId: ARENA.titleId, platformId: PLAYER.platformId });
      assert.equal(other.isError, true);
      assert.match(other.json.error, new RegExp(`Title ${ARENA.titleId} is not one this server may read`));
      const own = await call(s, 'get_played_titles', { platformId: PLAYER.platformId });
      assert.equal(own.isError, false, own.text);
      assert.match(s.stderr(), new RegExp(`serving \\d+ read-only tools over stdio for ${RACER.titleId}\\.`));
    } finally {
      await s.close();
    }
  });
});
