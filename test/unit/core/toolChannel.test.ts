// Both ends of the channel between the editor and its MCP server in this process (test/unit/mcp
// runs the server's end in a child process): calls recorded, deletion jobs asked and answered, a
// stranger or a malformed line cut off, and a closed editor reported as such to the server.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { LedgerEntry } from '../../../src/core/deletion/types';
import { CHANNEL_ENV, CHANNEL_TOKEN_ENV, hostChannel, joinChannel, type ChannelHost, type ToolCallRecord } from '../../../src/core/tools/channel';

const job = (titleId: string, n: number): LedgerEntry => ({
  input: `P${n}`, platformId: `P${n}`, titleId, titleIds: [titleId], jobReceiptId: `r-${n}`, requestedAt: '2026-01-02T03:04:05.000Z', state: 'queued',
});
const JOBS = [job('AAAA', 1), job('BBBB', 2), job('AAAA', 3)];
const RECORD: ToolCallRecord = { tool: 'get_played_titles', titleId: 'AAAA', operations: ['GetPlayedTitleList'], outcome: 'succeeded', time: '2026-01-02T03:04:05.000Z', durationMs: 12 };
const NOT_ANSWERED = /^Error: VS Code did not answer with the deletion jobs \(the editor closed this server's channel\)\.$/;

/** A raw connection to the editor's end, and a promise of everything it receives until it closes. */
function raw(host: ChannelHost): { socket: Socket; received: Promise<string> } {
  const socket = createConnection(host.env[CHANNEL_ENV]);
  let text = '';
  socket.on('data', (d) => { text += d.toString(); });
  socket.on('error', () => undefined);
  return { socket, received: new Promise((resolve) => socket.once('close', () => resolve(text))) };
}

/** The first line `socket` receives. */
function firstLine(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (d: Buffer): void => {
      text += d.toString();
      const i = text.indexOf('\n');
      if (i >= 0) {
        socket.off('data', onData);
        resolve(text.slice(0, i));
      }
    };
    socket.on('data', onData);
  });
}

const hello = (host: ChannelHost): string => `${JSON.stringify({ type: 'hello', token: host.env[CHANNEL_TOKEN_ENV] })}\n`;

describe('tools: the editor\'s channel, both ends', () => {
  let host: ChannelHost;
  const calls: ToolCallRecord[] = [];
  let onCall: (() => void) | undefined;
  let jobs: readonly LedgerEntry[] = JOBS;
  beforeEach(async () => {
    calls.length = 0;
    jobs = JOBS;
    host = await hostChannel({ onCall: (r) => { calls.push(r); onCall?.(); }, jobs: (titleId) => jobs.filter((j) => !titleId || j.titleId === titleId) });
  });
  afterEach(() => host.close());

  it('the server records its calls and asks for the jobs, of all titles or of one, several at a time', async () => {
    const client = await joinChannel({ ...host.env });
    assert.ok(client);
    try {
      const recorded = new Promise<void>((r) => { onCall = r; });
      client.record(RECORD);
      await recorded;
      assert.deepEqual(calls, [RECORD]);
      const [all, a, b] = await Promise.all([client.jobs(), client.jobs('AAAA'), client.jobs('BBBB')]);
      assert.deepEqual(all, JOBS);
      assert.deepEqual(a.map((j) => j.platformId), ['P1', 'P3']);
      assert.deepEqual(b.map((j) => j.platformId), ['P2']);
    } finally {
      client.close();
    }
  });

  it('a long answer (thousands of jobs, many reads of the socket) arrives whole', async () => {
    jobs = Array.from({ length: 3000 }, (_, i) => job('AAAA', i));
    const client = await joinChannel(host.env);
    try {
      const got = await client!.jobs();
      assert.equal(got.length, 3000);
      assert.deepEqual(got.at(-1), jobs.at(-1));
    } finally {
      client!.close();
    }
  });

  it('without both variables the server runs standalone: no channel', async () => {
    assert.equal(await joinChannel({}), undefined);
    assert.equal(await joinChannel({ [CHANNEL_ENV]: host.env[CHANNEL_ENV] }), undefined);
    assert.equal(await joinChannel({ [CHANNEL_TOKEN_ENV]: host.env[CHANNEL_TOKEN_ENV] }), undefined);
    assert.equal(await joinChannel({ [CHANNEL_ENV]: '', [CHANNEL_TOKEN_ENV]: host.env[CHANNEL_TOKEN_ENV] }), undefined);
  });

  it('a socket in a new folder only the user can open, removed when the editor closes the channel', async function () {
    if (process.platform === 'win32') this.skip();
    const path = host.env[CHANNEL_ENV];
    assert.ok(isAbsolute(path), path);
    assert.match(basename(dirname(path)), /^platform-explorer-mcp-/);
    assert.equal(dirname(dirname(path)), tmpdir());
    assert.equal(statSync(dirname(path)).mode & 0o777, 0o700);
    assert.ok(statSync(path).isSocket());
    await host.close();
    assert.ok(!existsSync(dirname(path)));
  });

  it('closing the editor\'s end while a server is connected ends that connection', async () => {
    const client = await joinChannel(host.env);
    const { socket, received } = raw(host);
    socket.write(hello(host));
    await host.close();
    assert.equal(await received, '');
    await assert.rejects(client!.jobs(), NOT_ANSWERED);
  });

  it('a connection is cut off before anything is read unless its first line is the hello with the token', async () => {
    const token = host.env[CHANNEL_TOKEN_ENV];
    const wrong = token.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const jobsLine = `${JSON.stringify({ type: 'jobs', id: 1 })}\n`;
    for (const first of [{ type: 'hello', token: wrong }, { type: 'hello' }, { type: 'hello', token: `${token}0` }, { type: 'welcome', token }, { type: 'jobs', id: 1, token }, 'hello', null]) {
      const { socket, received } = raw(host);
      socket.write(`${JSON.stringify(first)}\n${jobsLine}`);
      assert.equal(await received, '', JSON.stringify(first));
    }
    const { socket, received } = raw(host);
    socket.write(`${JSON.stringify({ type: 'call', record: RECORD })}\n`);
    assert.equal(await received, '');
    assert.deepEqual(calls, []);
  });

  it('lines: several in one write are each read; one split over writes is read whole', async () => {
    const { socket } = raw(host);
    try {
      const answer = firstLine(socket);
      socket.write(`${hello(host)}${JSON.stringify({ type: 'jobs', id: 7, titleId: 'BBBB' })}\n`);
      assert.deepEqual(JSON.parse(await answer), { type: 'jobs', id: 7, jobs: [JOBS[1]] });
      const second = firstLine(socket);
      const line = `${JSON.stringify({ type: 'jobs', id: 8, titleId: 42 })}\n`;
      socket.write(line.slice(0, 10));
      await new Promise((r) => setImmediate(r));
      socket.write(line.slice(10));
      // A title ID that is not text asks for every title's jobs.
      assert.deepEqual(JSON.parse(await second), { type: 'jobs', id: 8, jobs: JOBS });
    } finally {
      socket.destroy();
    }
  });

  it('an empty or malformed line, or one longer than 64 KiB, ends the connection', async () => {
    for (const bad of ['\n', 'not json\n', `{"type":"call","record":"${'x'.repeat(70 * 1024)}`]) {
      const { socket, received } = raw(host);
      socket.write(hello(host));
      socket.write(bad);
      assert.equal(await received, '', bad.slice(0, 20));
    }
    assert.deepEqual(calls, []);
  });
});

describe('tools: the server\'s end when the editor misbehaves', () => {
  let dir: string;
  let server: Server;
  /** What the fake editor does with each line after the hello. */
  let onLine: (socket: Socket, line: { id: number }) => void;
  let path: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'channel-test-'));
    path = process.platform === 'win32' ? `\\\\.\\pipe\\channel-test-${process.pid}` : join(dir, 's');
    server = createServer((socket) => {
      let buf = '';
      socket.on('data', (d) => {
        buf += d.toString();
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = JSON.parse(buf.slice(0, i)) as { type: string; id: number };
          buf = buf.slice(i + 1);
          if (line.type === 'jobs') onLine(socket, line);
        }
      });
    });
    await new Promise<void>((r) => server.listen(path, r));
  });
  after(async () => {
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });
  const env = (): NodeJS.ProcessEnv => ({ [CHANNEL_ENV]: path, [CHANNEL_TOKEN_ENV]: 't' });

  it('a question pending when the editor closes the channel fails with a clear message, and so do later ones', async () => {
    onLine = (socket) => socket.destroy();
    const client = await joinChannel(env());
    await assert.rejects(client!.jobs(), NOT_ANSWERED);
    await assert.rejects(client!.jobs('AAAA'), NOT_ANSWERED);
  });

  it('an answer without a list of jobs fails that question only; an answer to no question is ignored', async () => {
    onLine = (socket, line) => {
      socket.write(`${JSON.stringify({ id: 999, jobs: [] })}\n`);
      socket.write(`${JSON.stringify(line.id === 1 ? { id: 1, jobs: null } : { id: line.id, jobs: [JOBS[0]] })}\n`);
    };
    const client = await joinChannel(env());
    try {
      await assert.rejects(client!.jobs(), NOT_ANSWERED);
      assert.deepEqual(await client!.jobs(), [JOBS[0]]);
    } finally {
      client!.close();
    }
  });

  it('a malformed line from the editor ends the channel: the question pending fails', async () => {
    onLine = (socket) => socket.write('}{\n');
    const client = await joinChannel(env());
    await assert.rejects(client!.jobs(), NOT_ANSWERED);
  });

  it('no editor listening: joining fails', async () => {
    await assert.rejects(joinChannel({ [CHANNEL_ENV]: join(dir, 'nobody'), [CHANNEL_TOKEN_ENV]: 't' }), /ENOENT|ECONNREFUSED/);
  });
});
