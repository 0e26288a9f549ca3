// Service text in the command line's output: a service (a loopback stand-in) answers a deletion
// with a 1 MB receipt that opens with a terminal escape sequence (OSC 52 writes the clipboard) and
// carries the key, and titles with CSI sequences. The table, --json, the receipts and the journal
// stay small, hold no control character and never the key.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, TITLE } from './support';

const PID = '0123456789ABCDEF';
const OSC52 = '\u001b]52;c;ZWNobyBvd25lZA==\u0007';
const CONTROL_RE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('cli: service text in the terminal and its files', () => {
  let server: Server;
  let endpoint: string;
  let dir: string;
  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const op = req.url?.split('/').pop();
        // Many titles: a --json row longer than a terminal line must still be whole JSON.
        const titles = ['F71AC', '\u001b[2J\u001b[31mA248', '\u009b6n', ...Array.from({ length: 700 }, (_, i) => (0xa000 + i).toString(16).toUpperCase())];
        const data = op === 'DeleteMasterPlayerAccount'
          ? { JobReceiptId: `${OSC52}${'R'.repeat(1_000_000)} ${TITLE.secretKey}`, TitleIds: titles }
          : { TitleIds: titles };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 200, status: 'OK', data }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/{titleId}`;
  });
  after(() => new Promise<void>((r) => {
    server.closeAllConnections();
    server.close(() => r());
  }));
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'pe-text-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const json of [false, true]) {
    it(`${json ? '--json' : 'the table'}: clipped, escape sequences inert, the key masked (terminal, receipts, journal)`, async () => {
      const input = join(dir, 'ids.txt');
      writeFileSync(input, `${PID}\n`);
      const journal = join(dir, 'j.jsonl');
      const receipts = join(dir, json ? 'r.json' : 'r.csv');
      const args = ['delete-players', '--title', TITLE.titleId, '--endpoint', endpoint, '--kind', 'platform-id', '--input', input, '--journal', journal, ...(json ? ['--json'] : [])];
      const dry = await runCli([...args, '--dry-run']);
      for (const text of [dry.stdout, dry.stderr]) assert.ok(!CONTROL_RE.test(text), `dry run: ${JSON.stringify(text.slice(0, 300))}`);
      const confirm = json ? (JSON.parse(dry.stdout) as { confirm: string }).confirm : /To send: --confirm (\S+)/.exec(dry.stdout)![1];
      const r = await runCli([...args, '--confirm', confirm, '--receipts', receipts]);
      assert.equal(r.code, 0, r.stderr.slice(0, 500));
      const files = { stdout: r.stdout, stderr: r.stderr, receipts: readFileSync(receipts, 'utf8').replace(/\r\n/g, '\n'), journal: readFileSync(journal, 'utf8') };
      for (const [where, text] of Object.entries(files)) {
        assert.ok(text.length < 20_000, `${where}: ${text.length} characters for a 1 MB receipt`);
        assert.ok(!CONTROL_RE.test(text), `${where}: ${JSON.stringify(text.slice(0, 300))}`);
        assert.ok(!text.includes(TITLE.secretKey), `${where}: the key`);
      }
      const row = json ? (JSON.parse(r.stdout) as { jobReceiptId: string; titleIds: string[] }) : undefined;
      if (row !== undefined) assert.equal(row.titleIds.length, 703, 'the --json row is whole');
      const shown = row?.jobReceiptId ?? r.stdout;
      assert.match(shown, /\\u001b]52;c;ZWNobyBvd25lZA==\\\S{0,80}… \(\d+ characters in all\)/, 'the receipt is shown inert and clipped');
    });
  }
});
