// `request record-export` never takes the download link (a bearer link to the person's data) as an
// argument (issue 29): another local user read it from /proc while the command ran. Test of record:
// /proc/PID/cmdline and environ of a running record-export hold no link; the link comes from
// standard input (piped, or typed at a terminal without echo) or from a file of the user's own.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequest, dryRun, RequestStore, runActions } from '../../../src/core/requests';
import { CLI, delay, STATE_HOME, useCountingEmulator, type CliRun } from '../deletion/support';
import { AUTH, KEY_ENV, players, servicesOn } from './support';

const LINK = 'https://downloads.example/export/7f3a?sig=BEARERPART9Q2M4X8T1W6R3Y5U0P7S';

describe('requests: record-export takes the link from standard input or a file of the user\'s own, never argv', function () {
  this.timeout(60_000);
  const f = useCountingEmulator('pe-link-');
  let store: string;
  let id: string;
  let receipt: string;

  beforeEach(async () => {
    store = join(f.dir, 'store');
    const rs = await RequestStore.open(store, { auth: AUTH });
    const ana = (await players(f.emu)).find((p) => p.email !== null && p.titlesPlayed.includes('F71AC'))!;
    const r = await createRequest(rs, { reference: 'T-LINK', asks: ['access'], identifiers: [{ kind: 'email', value: ana.email! }], titles: ['F71AC'], endpoint: f.counter.endpoint });
    const services = servicesOn(f.emu);
    try {
      const d = await dryRun(rs, r.id, services);
      const run = await runActions(rs, r.id, services, { confirm: d.confirm });
      receipt = run.request.actions.find((a) => a.kind === 'export')!.jobReceiptId!;
    } finally {
      await services.close();
    }
    id = r.id;
  });

  const start = (args: string[]): { child: ChildProcess; done: Promise<CliRun> } => {
    const child = spawn(process.execPath, [CLI, 'request', 'record-export', '--store', store, '--id', id, '--receipt', receipt, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH, XDG_STATE_HOME: STATE_HOME, ...KEY_ENV },
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
    return { child, done: new Promise((res) => child.once('close', (code, signal) => res({ code, signal, stdout, stderr }))) };
  };
  const recorded = async (): Promise<string | undefined> => (await (await RequestStore.open(store)).load(id)).actions.find((a) => a.kind === 'export')!.downloadUrl;
  const noLink = (r: CliRun): void => assert.ok(!r.stdout.includes('BEARERPART') && !r.stderr.includes('BEARERPART'), `the link was printed: ${r.stdout} ${r.stderr}`);

  it('piped in: /proc/PID/cmdline and environ of the running command hold no link; the export is completed with it', async () => {
    const { child, done } = start(['--json']);
    const proc = `/proc/${child.pid}`;
    // The command is running and waiting for its standard input: read what another user could.
    let cmdline = '';
    for (let i = 0; i < 200 && !cmdline.includes('record-export'); i++) {
      cmdline = existsSync(`${proc}/cmdline`) ? readFileSync(`${proc}/cmdline`, 'utf8') : '';
      if (!cmdline.includes('record-export')) await delay(25);
    }
    assert.match(cmdline, /record-export/, 'the command was read while it ran');
    const environ = readFileSync(`${proc}/environ`, 'utf8');
    assert.ok(!cmdline.includes('BEARERPART') && !cmdline.includes('downloads.example'), 'no link in the arguments');
    assert.ok(!environ.includes('BEARERPART'), 'no link in the environment');
    child.stdin!.end(`${LINK}\n`);
    const r = await done;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).actions.find((a: { kind: string }) => a.kind === 'export').status, 'completed');
    noLink(r);
    assert.equal(await recorded(), LINK);
  });

  it('--url is refused with the reason, and the link is not repeated; nothing is recorded', async () => {
    for (const args of [['--url', LINK], [`--url=${LINK}`]]) {
      const { child, done } = start(args);
      child.stdin!.end();
      const r = await done;
      assert.equal(r.code, 2);
      assert.match(r.stderr, /--url is not accepted: a download link on the command line is visible to other users of this machine \(ps, \/proc\)/);
      assert.match(r.stderr, /--url-file FILE/);
      noLink(r);
    }
    assert.equal(await recorded(), undefined);
  });

  it('nothing on standard input, or not a link: refused without quoting what was given', async () => {
    const empty = start([]);
    empty.child.stdin!.end();
    const r1 = await empty.done;
    assert.equal(r1.code, 2);
    assert.match(r1.stderr, /No download link was given: paste it when asked, pipe it in on standard input, or give --url-file FILE/);
    const wrong = start([]);
    wrong.child.stdin!.end('downloads.example/export?sig=BEARERPART\n');
    const r2 = await wrong.done;
    assert.equal(r2.code, 1);
    assert.match(r2.stderr, /What was given is not a link/);
    noLink(r2);
    assert.equal(await recorded(), undefined);
  });

  it('--url-file: a file of the user\'s own, readable by the user alone; a shared, linked or missing file is refused naming the fix', async () => {
    const file = join(f.dir, 'link.txt');
    writeFileSync(file, `\n  ${LINK}  \nanything after\n`);
    chmodSync(file, 0o644);
    const open = await start(['--url-file', file]).done;
    assert.equal(open.code, 2);
    assert.match(open.stderr, /the file can be read by group or others \(mode 644\), and it holds a link to the person's data; run chmod 600 on it\./);
    chmodSync(file, 0o620);
    assert.match((await start(['--url-file', file]).done).stderr, /writable by group or others \(mode 620\); run chmod go-w on it/);
    const link = join(f.dir, 'planted.txt');
    symlinkSync(file, link);
    const linked = await start(['--url-file', link]).done;
    assert.equal(linked.code, 2);
    assert.match(linked.stderr, /the file is a symbolic link, which could lead to another user's file/);
    assert.match((await start(['--url-file', join(f.dir, 'none.txt')]).done).stderr, /cannot be read \(ENOENT\); write the link from the e-mail into a file of your own \(chmod 600\)/);
    assert.equal(await recorded(), undefined);
    chmodSync(file, 0o600);
    const ok = start(['--url-file', file]);
    ok.child.stdin!.end('https://downloads.example/not-this-one\n');
    const r = await ok.done;
    assert.equal(r.code, 0, r.stderr);
    noLink(r);
    assert.equal(await recorded(), LINK, 'the file\'s first line, not standard input');
  });

  it('at a terminal: asked for, and what is pasted is not echoed', async function () {
    if (process.platform !== 'linux' || !existsSync('/usr/bin/script')) this.skip();
    // script(1) gives the command a pseudo-terminal; everything the terminal shows comes back on its stdout.
    const quoted = [process.execPath, CLI, 'request', 'record-export', '--store', store, '--id', id, '--receipt', receipt].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = spawn('/usr/bin/script', ['-qfec', quoted, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH, XDG_STATE_HOME: STATE_HOME, ...KEY_ENV } });
    let shown = '';
    child.stdout!.on('data', (d: Buffer) => { shown += d.toString(); });
    const closed = new Promise<number | null>((res) => child.once('close', res));
    for (let i = 0; i < 400 && !shown.includes('(it is not shown)'); i++) await delay(25);
    assert.match(shown, new RegExp(`Paste the download link of export ${receipt} from the e-mail \\(it is not shown\\), then press Enter: `));
    child.stdin!.write(`${LINK}\r`);
    assert.equal(await closed, 0, shown);
    assert.ok(!shown.includes('BEARERPART'), `the terminal showed the link: ${shown}`);
    assert.equal(await recorded(), LINK);
  });
});
