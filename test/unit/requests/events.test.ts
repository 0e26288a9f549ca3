// The service's events are read only from an emulator on this machine (the real service e-mails
// instead): which endpoints get a reader, what it asks (real HTTP on 127.0.0.1), and what it makes
// of an error or a malformed answer.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { emulatorEventReader } from '../../../src/core/requests/events';

describe('requests: the emulator\'s events', () => {
  let server: Server;
  let port = 0;
  const asked: string[] = [];
  let answer: { status: number; body: string } = { status: 200, body: '{"events":[]}' };

  before(async () => {
    server = createServer((req, res) => {
      asked.push(req.url ?? '');
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => { asked.length = 0; });

  it('gives a reader only for an endpoint on this machine', () => {
    assert.equal(emulatorEventReader('https://{titleId}.example.com', 'F71AC'), undefined);
    assert.equal(emulatorEventReader('https://{titleId}.localhost.example.com', 'F71AC'), undefined);
    assert.equal(emulatorEventReader('not a url', 'F71AC'), undefined);
    assert.equal(emulatorEventReader('http://127.0.0.1:1/{titleId}', 'not hex'), undefined);
    assert.equal(typeof emulatorEventReader('http://127.0.0.1:1/{titleId}', 'F71AC'), 'function');
    assert.equal(typeof emulatorEventReader('http://[::1]:1/{titleId}', 'F71AC'), 'function');
    assert.equal(typeof emulatorEventReader('https://{titleId}.emu.localhost:1', 'F71AC'), 'function');
  });

  it('asks for one type of event at the endpoint\'s origin and keeps only events with a type', async () => {
    const read = emulatorEventReader(`http://127.0.0.1:${port}/base/{titleId}`, 'F71AC')!;
    answer = { status: 200, body: JSON.stringify({ events: [{ type: 'export_done', a: 1 }, null, 'x', { type: 5 }, { other: 1 }, { type: 'b' }] }) };
    assert.deepEqual(await read('export done&x'), [{ type: 'export_done', a: 1 }, { type: 'b' }]);
    assert.deepEqual(asked, ['/_emulator/events?type=export%20done%26x']);
  });

  it('reads an answer without a list of events as none', async () => {
    const read = emulatorEventReader(`http://127.0.0.1:${port}/{titleId}`, 'F71AC')!;
    for (const body of ['{}', '{"events":{"type":"x"}}', '{"events":"x"}']) {
      answer = { status: 200, body };
      assert.deepEqual(await read('t'), [], body);
    }
  });

  it('keeps at most 100000 events of an answer', async () => {
    const read = emulatorEventReader(`http://127.0.0.1:${port}/{titleId}`, 'F71AC')!;
    answer = { status: 200, body: JSON.stringify({ events: Array.from({ length: 100_001 }, (_, i) => ({ type: 't', i })) }) };
    const events = await read('t');
    assert.equal(events.length, 100_000);
    assert.deepEqual(events.at(-1), { type: 't', i: 99_999 });
  });

  it('throws on an HTTP error, naming the origin and the status', async () => {
    const read = emulatorEventReader(`http://127.0.0.1:${port}/{titleId}`, 'F71AC')!;
    answer = { status: 503, body: '{"events":[{"type":"x"}]}' };
    await assert.rejects(read('t'), { message: `the events of http://127.0.0.1:${port} answered HTTP 503` });
  });

  it('stops when the caller\'s signal aborts', async () => {
    const read = emulatorEventReader(`http://127.0.0.1:${port}/{titleId}`, 'F71AC')!;
    answer = { status: 200, body: '{"events":[]}' };
    await assert.rejects(read('t', { signal: AbortSignal.abort() }), { name: 'AbortError' });
    assert.deepEqual(asked, [], 'an aborted read sends nothing');
  });
});
