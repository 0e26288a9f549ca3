// Masking at every clip boundary (issue 29): a known key, or an unknown token-like run, placed at
// every offset around each edge where service text is clipped (the kept length, and the end of the
// window redaction scans) of the command line, the journal, the agent tools and the panels, after
// a token-like run, a run and a space, or words. Not one character of the key or the token may be
// shown: before the fix, serviceText and the tools' dataString cut the scan window with slice, so
// a key just past it kept its first characters (31 of 32 after a long token-like run).
import * as assert from 'node:assert/strict';
import { parseEnvelope } from '../../../src/core/api/envelope';
import { redactError } from '../../../src/core/api/answers';
import type { PlatformError } from '../../../src/core/api/errors';
import { clipForRedaction, redactText } from '../../../src/core/redact';
import { serviceLines, serviceText, serviceValue } from '../../../src/core/serviceText';
import { asToolData, dataString } from '../../../src/core/tools/data';
import { jsonLines, knownSecrets, table } from '../../../src/cli/output';

// The key and the token are written in letters no filler and no note uses (G-Z), so any one of
// their characters left in the output, outside a mask, is a leak.
const KEY = 'GHJKLMNPQRSTUVWXYZGHJKLMNPQRSTUV';
/** Unknown to the masker: token-like (capitals and digits), every other character a G-Z letter. */
const TOKEN = 'G5H6J7K8L9M5N6P7Q8R9S5T6U7V8W9X5Y6Z7G8H9';
const LEAK = /[G-Z]/;
// A mask keeps up to 4 last characters of what it hides (so users can tell keys apart).
const MASKS = /••••••••[A-Za-z0-9+/=_.-]{0,4}/g;

/** Filler of `n` characters before the secret: a token-like run, a run then a space, or words. */
const FILLERS: Record<string, (n: number) => string> = {
  'after a token-like run': (n) => 'aB3dE1'.repeat(Math.ceil(n / 6)).slice(0, n),
  'after a run and a space': (n) => (n === 0 ? '' : `${'aB3dE1'.repeat(Math.ceil(n / 6)).slice(0, n - 1)} `),
  'after words': (n) => 'a bcd '.repeat(Math.ceil(n / 6)).slice(0, n),
};

interface Site {
  name: string;
  /** The edges where it clips a string. */
  edges: number[];
  show(s: string): string;
}

const MARGIN = 512;
const cli = (max: number): Site => ({ name: `serviceText max ${max}`, edges: [max, max + MARGIN], show: (s) => serviceText(s, { max, secrets: [KEY] }) });
const tool = (max: number): Site => ({ name: `agent dataString max ${max}`, edges: [max, max + KEY.length], show: (s) => dataString(s, [KEY], max) });

const SITES: Site[] = [
  // The command line: table cells, plan and request JSON, terminal lines; the journal's fields; request evidence and errors.
  ...[40, 64, 80, 120, 300, 500, 1000, 2000].map(cli),
  { name: 'CLI table cell (input, 80)', edges: [80, 80 + MARGIN], show: (s) => table([{ input: s, state: 'failed' }]).split('\n').slice(1).join('\n') },
  { name: 'CLI --json lines (300)', edges: [300, 300 + MARGIN], show: (s) => jsonLines([{ detail: s }]) },
  { name: 'CLI request JSON (2000)', edges: [2000, 2000 + MARGIN], show: (s) => JSON.stringify(serviceValue({ error: s }, { max: 2000, secrets: [KEY] })) },
  { name: 'terminal lines (4000)', edges: [4000, 4000 + MARGIN], show: (s) => serviceLines(`x\n${s}`, { secrets: [KEY] }) },
  // The agent tools: each string, an error and its fix, member names, a whole result.
  ...[64, 256, 1000].map(tool),
  { name: 'agent result', edges: [256, 256 + KEY.length], show: (s) => JSON.stringify(asToolData({ name: s }, [KEY])) },
  // A service error's message, as the client hands it on (clipped in the envelope, then redacted).
  { name: 'service errorMessage (300)', edges: [300], show: (s) => serviceError(s) },
  // The panels: view strings (10,000) and the panel budget's clip, each then redacted.
  { name: 'panel view string', edges: [10_000], show: (s) => redactText(s, [KEY], 10_000) },
  { name: 'panel budget', edges: [700], show: (s) => redactText(clipForRedaction(s, 700, [KEY]), [KEY]) },
];

function serviceError(message: string): string {
  try {
    parseEnvelope('Admin/GetPlayedTitleList', { httpStatus: 400, body: JSON.stringify({ code: 400, status: 'BadRequest', error: 'InvalidParams', errorCode: 1000, errorMessage: message }) }, (d) => d);
  } catch (e) {
    const r = redactError(e as PlatformError, [KEY]);
    // The message is ours up to the quote of the service; the quote and errorMessage are the service's.
    return `${r.message.split('The service said: "')[1] ?? assert.fail(r.message)} ${r.errorMessage ?? ''}`;
  }
  return assert.fail('not refused');
}

function leaked(shown: string): string | undefined {
  const rest = shown.replace(MASKS, '');
  const m = LEAK.exec(rest);
  return m ? rest.slice(Math.max(0, m.index - 10), m.index + 40) : undefined;
}

describe('fuzz: a key or a token at every offset around every clip boundary shows none of its characters', function () {
  this.timeout(120_000);
  before(() => knownSecrets.push(KEY));
  after(() => knownSecrets.splice(knownSecrets.indexOf(KEY), 1));

  for (const site of SITES) {
    it(site.name, () => {
      let tried = 0;
      for (const edge of site.edges) {
        for (let at = Math.max(0, edge - TOKEN.length - 8); at <= edge + 8; at++) {
          for (const [how, fill] of Object.entries(FILLERS)) {
            for (const [what, secret] of [['the key', KEY], ['a token', TOKEN]] as const) {
              for (const tail of ['', ' and more text after it', 'aB3dE1aB3dE1']) {
                const s = `${fill(at)}${secret}${tail}`;
                const bad = leaked(site.show(s));
                assert.equal(bad, undefined, `${what} at offset ${at} (${how}, edge ${edge}, tail "${tail}") shows: ${bad}`);
                tried++;
              }
            }
          }
        }
      }
      assert.ok(tried > 100);
    });
  }
});
