// The command line's own text is never masked (issue 29): paths, request and batch IDs are shown
// whole, only escaped for the terminal; known secrets are still masked wherever they appear. It
// printed "--store ••••••••D1AB" and "the journal ••••••••orge.jsonl has no valid MAC": the user
// could not tell which file was meant.
import * as assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownText } from '../../../src/core/serviceText';
import { DEMO_TITLES } from '../../../src/emulator/seed';
import { runCli } from '../deletion/support';

const KEY = DEMO_TITLES[0].secretKey;
// Token-like to the masker: capitals and digits, 32 characters or more.
const TOKENISH = 'Store9XQ2M4T8W1R6Y3U5P0S2N8B4C7D1AB';

describe('requests: the CLI\'s own text (paths, IDs) is shown whole, escaped, with known secrets masked', function () {
  this.timeout(30_000);
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'pe-own-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a --store folder refused names its whole path', async () => {
    const store = join(dir, TOKENISH);
    mkdirSync(store, { mode: 0o700 });
    chmodSync(store, 0o777);
    const r = await runCli(['request', 'show', '--store', store]);
    assert.equal(r.code, 2);
    assert.ok(r.stderr.includes(`--store ${store}: the folder ${store} is writable by group or others (mode 777)`), r.stderr);
    assert.ok(!r.stderr.includes('••••'), r.stderr);
  });

  it('a journal refused names its whole path; the key is still masked where it appears, and controls are escaped', async () => {
    const journal = join(dir, 'Journal9XQ2M4T8W1R6Y3U5P0S2N8B4C7forge.jsonl');
    writeFileSync(journal, '{"type":"batch","titleId":"F71AC"}\n', { mode: 0o600 });
    const args = (j: string): string[] => ['delete-players', '--title', 'F71AC', '--endpoint', 'http://127.0.0.1:9/{titleId}', '--kind', 'platform-id', '--journal', j, '--resume', '--dry-run'];
    const r = await runCli(args(journal), { PLATFORM_SECRET_KEY: KEY });
    assert.equal(r.code, 1);
    assert.ok(r.stderr.includes(`The journal ${journal} was written by an earlier version`), r.stderr);
    // A path that holds the key (a mistake) and an escape sequence: the key masked, the escape made visible.
    const odd = join(dir, `${KEY}\u001b[2J.jsonl`);
    writeFileSync(odd, '{"type":"batch","titleId":"F71AC"}\n', { mode: 0o600 });
    const r2 = await runCli(args(odd), { PLATFORM_SECRET_KEY: KEY });
    assert.ok(!r2.stderr.includes(KEY) && !r2.stderr.includes('\u001b'), r2.stderr);
    assert.ok(r2.stderr.includes(`${dir}/••••••••${KEY.slice(-4)}\\u001b[2J.jsonl`), r2.stderr);
  });

  it('ownText: lines kept, controls escaped, known secrets masked, token-like text left as it is', () => {
    assert.equal(ownText(`a ${TOKENISH}\nb ${KEY}\u001b[2J`, [KEY]), `a ${TOKENISH}\nb ••••••••${KEY.slice(-4)}\\u001b[2J`);
  });
});
