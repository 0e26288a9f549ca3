// The requests folder without the service: a folder per request, refused when it is not the
// user's own, state files checked before use (naming the file and the fix), one change at a time,
// and the service's events read only from an emulator on this machine.
import * as assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emulatorEventReader, newRequest, RequestError, RequestStore, type DataRequest } from '../../../src/core/requests';
import { AUTH } from './support';

const request = (): DataRequest => newRequest({
  reference: 'T-1', asks: ['access'], identifiers: [{ kind: 'email', value: 'ana@example.com' }], titles: ['F71AC'], endpoint: 'http://127.0.0.1:1/{titleId}', received: '2026-01-05',
});

describe('requests: the store', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'pe-store-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates its folder (700) and each request\'s, never over an existing one; lists them oldest first with the folders it cannot read', async () => {
    const store = await RequestStore.open(join(dir, 'requests'), { auth: AUTH });
    const a = { ...request(), createdAt: '2026-01-06T00:00:00.000Z' };
    const b = { ...request(), createdAt: '2026-01-05T00:00:00.000Z' };
    await store.create(a);
    await store.create(b);
    await assert.rejects(store.create(a), { message: `A request folder ${store.folder(a.id)} already exists; nothing was written. Try again (a new id is drawn each time).` });
    assert.deepEqual(await store.load(a.id), a);
    assert.equal(readFileSync(join(store.folder(a.id), 'request.json'), 'utf8'), `${JSON.stringify(a, null, 2)}\n`);
    mkdirSync(join(store.dir, 'dr-20260101-abcdef'));
    writeFileSync(join(store.dir, 'dr-20260101-abcdef', 'request.json'), '{');
    mkdirSync(join(store.dir, 'notes'));
    const { requests, problems } = await store.list();
    assert.deepEqual(requests.map((r) => r.id), [b.id, a.id]);
    assert.deepEqual(problems, [`Request dr-20260101-abcdef: its state file ${join(store.dir, 'dr-20260101-abcdef', 'request.json')} is not JSON (damaged or edited); restore it from your backup.`]);
    assert.equal(store.journalPath(a.id, 'export', 'f71ac'), join(store.folder(a.id), 'export-F71AC.journal.jsonl'));
    assert.equal(store.evidencePath(a.id, 'md'), join(store.folder(a.id), 'evidence.md'));
    assert.equal(store.evidencePath(a.id, 'json'), join(store.folder(a.id), 'evidence.json'));
  });

  it('a folder that is not the user\'s own is refused, naming it and the fix', async () => {
    mkdirSync(join(dir, 'shared'), { mode: 0o777 });
    chmodSync(join(dir, 'shared'), 0o777);
    await assert.rejects(RequestStore.open(join(dir, 'shared')), (e: unknown) => e instanceof RequestError && e.message === `The requests folder ${join(dir, 'shared')}: the folder ${join(dir, 'shared')} is writable by group or others (mode 777); run chmod go-w on it, or use a folder of your own that only you can write (mkdir -m 700 DIR).`);
    await assert.rejects(RequestStore.open(join(dir, 'shared'), { label: 'The store' }), /^Error: The store /);
    const store = await RequestStore.open(join(dir, 'mine'), { auth: AUTH });
    const r = request();
    await store.create(r);
    symlinkSync(join(dir, 'elsewhere.json'), join(store.folder(r.id), 'evidence.json'));
    await assert.rejects(store.check(r.id, 'evidence.json'), /^Error: Request dr-[0-9a-f-]+: evidence\.json: the file is a symbolic link, which could lead to another user's file; give the real path, use a file of your own \(or a new path\)\.$/);
    assert.throws(() => store.folder('../x'), { message: '"../x" is not a request id (they look like dr-20261102-a1b2c3); list them with request show.' });
    await assert.rejects(store.load('dr-20990101-abcdef'), { message: `Request dr-20990101-abcdef: no such request in ${store.dir}; list them with request show.` });
  });

  it('a state file is loaded only when it is one, of this request and version, with its fields', async () => {
    const store = await RequestStore.open(join(dir, 'requests'), { auth: AUTH });
    const r = request();
    await store.create(r);
    const file = join(store.folder(r.id), 'request.json');
    const why = (text: string): Promise<unknown> => { writeFileSync(file, text); return store.load(r.id); };
    const bad: [unknown, string][] = [
      [null, 'is not a request state file of this version'],
      [{ ...r, version: 2 }, 'is not a request state file of this version'],
      [{ ...r, id: 'dr-20260105-000000' }, 'names another request (dr-20260105-000000)'],
      [{ ...r, reference: 5 }, 'has no reference or dates'],
      [{ ...r, received: undefined }, 'has no reference or dates'],
      [{ ...r, due: null }, 'has no reference or dates'],
      [{ ...r, asks: 'access' }, 'has no asks, identifiers, titles or actions'],
      [{ ...r, identifiers: {} }, 'has no asks, identifiers, titles or actions'],
      [{ ...r, titles: 'F71AC' }, 'has no asks, identifiers, titles or actions'],
      [{ ...r, actions: undefined }, 'has no asks, identifiers, titles or actions'],
    ];
    for (const [v, problem] of bad) await assert.rejects(why(JSON.stringify(v)), { message: `Request ${r.id}: its state file ${file} ${problem}; restore it from your backup.` }, problem);
    rmSync(file);
    mkdirSync(file);
    await assert.rejects(store.load(r.id), /is not a regular file/);
  });

  it('one change at a time: a second lock of a request is refused as busy, naming its state file', async () => {
    const store = await RequestStore.open(join(dir, 'requests'), { auth: AUTH });
    const r = request();
    await store.create(r);
    const unlock = await store.lock(r.id);
    await assert.rejects(store.lock(r.id), { message: `Request ${r.id} is busy: its state file ${join(store.folder(r.id), 'request.json')} is in use by process ${process.pid} (this one); wait for that run to finish. Two runs of one batch could send a deletion twice.` });
    await unlock();
    await (await store.lock(r.id))();
  });
});

describe('requests: the service\'s events', () => {
  let server: Server;
  let port: number;
  const served: string[] = [];
  let answer: { status: number; body: unknown } = { status: 200, body: {} };
  before(async () => {
    server = createServer((req, res) => {
      served.push(req.url ?? '');
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('are read only from an emulator on this machine: the events of a type, their shape checked', async () => {
    assert.equal(emulatorEventReader('https://{titleId}.platform.example', 'F71AC'), undefined);
    assert.equal(emulatorEventReader('not a url', 'F71AC'), undefined);
    const read = emulatorEventReader(`http://127.0.0.1:${port}/{titleId}`, 'F71AC')!;
    answer = { status: 200, body: { events: [{ type: 'player_data_exported', JobReceiptId: 'R1' }, { JobReceiptId: 'no type' }, null, 'x', { type: 5 }] } };
    assert.deepEqual(await read('player_data_exported & more'), [{ type: 'player_data_exported', JobReceiptId: 'R1' }]);
    assert.equal(served.at(-1), '/_emulator/events?type=player_data_exported%20%26%20more');
    answer = { status: 200, body: { events: 'none' } };
    assert.deepEqual(await read('x'), []);
    answer = { status: 503, body: {} };
    await assert.rejects(read('x'), { message: `the events of http://127.0.0.1:${port} answered HTTP 503` });
  });
});
