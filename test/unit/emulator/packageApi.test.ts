// The programmatic API as a game-server team gets it: `npm pack` of packages/emulator, installed
// offline into an empty folder outside the repository; a user's TypeScript test file is
// type-checked against the package's .d.ts with tsc (no skipLibCheck) and run with node:test (ESM),
// a CommonJS one with node:test and with mocha; a failing test that never stops its emulator still
// lets the run end.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REPO = process.cwd();
const PACKAGE_DIR = join(REPO, 'packages', 'emulator');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const MOCHA = join(REPO, 'node_modules', 'mocha', 'bin', 'mocha.js');

const SEED = `{ titles: [{ titleId: 'C0FFEE', name: 'CI Game', secretKey: 'CIKEY0123456789ABCDEF' }], players: [{ storefrontNames: ['ci_player'], titles: { C0FFEE: {} } }] }`;

/** A user's test in TypeScript (ESM): every member of the API, typed. */
const USER_TS = `import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator, type RequestEntry } from 'platform-emulator';

const LOOKUP = 'Server/GetPlatformIDsFromStorefrontNames';

async function lookUp(emu: RunningEmulator, name: string): Promise<number> {
  const res = await fetch(emu.endpoint.replace('{titleId}', 'C0FFEE') + '/' + LOOKUP, {
    method: 'POST', headers: { 'Content-Type': 'application/json', 'X-SecretKey': emu.titles[0].secretKey }, body: JSON.stringify({ StorefrontNames: [name] }),
  });
  await res.text();
  return res.status;
}

test('a game server test with the emulator in its own process', async (t) => {
  const emu = await startEmulator({ seed: ${SEED}, faultSeed: 11 });
  t.after(() => emu.stop());
  assert.match(emu.endpoint, /^http:\\/\\/127\\.0\\.0\\.1:\\d+\\/\\{titleId\\}$/);
  assert.equal(emu.faultSeed, 11);
  assert.equal((await fetch(emu.origin + '/_emulator/stats')).status, 401, 'another client without the token');
  const waited = emu.waitForRequest({ operation: LOOKUP, titleId: 'c0ffee' });
  assert.equal(await lookUp(emu, 'ci_player'), 200);
  const entry: RequestEntry = await waited;
  assert.equal(entry.status, 200);
  await emu.snapshot('clean');
  await emu.faults({ rules: [{ operation: LOOKUP, kind: '503', probability: 1, times: 2 }] });
  assert.deepEqual([await lookUp(emu, 'x'), await lookUp(emu, 'x'), await lookUp(emu, 'x')], [503, 503, 200]);
  assert.equal((await emu.requests({ status: 503 })).length, 2);
  await emu.faults(null);
  await emu.restore('clean');
  await emu.reset();
  await emu.advanceClock(1000);
  await emu.stop();
});
`;

/** The same user, CommonJS: runs under node:test and under mocha alike (describe/it from either). */
const USER_CJS = `const assert = require('node:assert/strict');
const { startEmulator } = require('platform-emulator');
const { describe, it, before, after } = typeof globalThis.describe === 'function' ? globalThis : require('node:test');

describe('CommonJS user', () => {
  let emu;
  before(async () => { emu = await startEmulator({ seed: 'empty' }); });
  after(() => emu.stop());
  it('starts from a built-in seed on a free port', async () => {
    assert.deepEqual(emu.titles.map((t) => t.titleId), ['F71AC', 'A248', 'C3A5E'], 'the demo titles without players');
    assert.equal((await fetch(emu.origin + '/_emulator/ready')).status, 200);
  });
});
`;

describe('emulator: the programmatic API of the packed package', function () {
  this.timeout(240_000);
  let work: string;
  before(() => { work = mkdtempSync(join(tmpdir(), 'emu-api-')); });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('installs offline with no dependency; a typed node:test file, a CommonJS file under node:test and mocha all pass', () => {
    const packed = JSON.parse(execFileSync(npm, ['pack', '--json', '--pack-destination', work], { cwd: PACKAGE_DIR, encoding: 'utf8' })) as { filename: string; files: { path: string }[] }[];
    assert.deepEqual(packed[0].files.map((f) => f.path).sort(), ['README.md', 'dist/emulator.js', 'dist/index.cjs', 'dist/index.mjs', 'index.d.mts', 'index.d.ts', 'package.json', 'seed.schema.json']);
    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), '{"name":"a-game-server","version":"1.0.0","private":true}');
    const env = { PATH: process.env.PATH ?? '', HOME: work, npm_config_cache: join(work, 'npm-cache'), npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };
    // --offline with an empty cache: nothing can come from a registry.
    execFileSync(npm, ['install', '--offline', '--no-save', join(work, packed[0].filename)], { cwd: app, env, encoding: 'utf8' });
    assert.deepEqual(readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.')), ['platform-emulator']);

    writeFileSync(join(app, 'game.test.mts'), USER_TS);
    const tsc = (file: string) => spawnSync(process.execPath, [TSC, '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022',
      '--typeRoots', join(REPO, 'node_modules', '@types'), '--types', 'node', '--outDir', join(app, 'out'), file], { cwd: app, encoding: 'utf8' });
    const built = tsc('game.test.mts');
    assert.equal(built.status, 0, `tsc: ${built.stdout}${built.stderr}`);
    // The .d.ts is really what tsc checks against: a wrong call is refused.
    writeFileSync(join(app, 'wrong.mts'), "import { startEmulator } from 'platform-emulator';\nconst emu = await startEmulator({ seed: 'demo' });\nawait emu.snapshot(42);\nawait emu.faults({ rules: [{ kind: '418' }] });\n");
    const wrong = tsc('wrong.mts');
    assert.notEqual(wrong.status, 0);
    assert.match(wrong.stdout, /wrong\.mts\(3,\d+\): error TS2345: Argument of type 'number'/);
    assert.match(wrong.stdout, /wrong\.mts\(4,\d+\): error TS2322: Type '"418"'/);

    const run = (args: string[]) => spawnSync(process.execPath, args, { cwd: app, env, encoding: 'utf8', timeout: 120_000 });
    const esm = run(['--test', join(app, 'out', 'game.test.mjs')]);
    assert.equal(esm.status, 0, `node --test (ESM): ${esm.stdout}${esm.stderr}`);
    assert.match(esm.stdout, /# pass 1/);
    writeFileSync(join(app, 'user.test.cjs'), USER_CJS);
    const cjs = run(['--test', 'user.test.cjs']);
    assert.equal(cjs.status, 0, `node --test (CommonJS): ${cjs.stdout}${cjs.stderr}`);
    const mocha = run([MOCHA, '--no-config', 'user.test.cjs']);
    assert.equal(mocha.status, 0, `mocha: ${mocha.stdout}${mocha.stderr}`);
    assert.match(mocha.stdout, /1 passing/);
  });

  it('a failing test that never stops its emulator still lets the run end (nothing keeps the process)', () => {
    const app = join(work, 'app');
    writeFileSync(join(app, 'forgot.test.mjs'), "import { test } from 'node:test';\nimport { startEmulator } from 'platform-emulator';\n"
      + "test('forgets stop and fails', async () => {\n  const emu = await startEmulator();\n  await fetch(emu.origin + '/_emulator/ready');\n  throw new Error('the game server broke');\n});\n");
    const r = spawnSync(process.execPath, ['--test', 'forgot.test.mjs'], { cwd: app, encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.signal, null, 'the run hung until killed');
    assert.equal(r.status, 1, r.stdout);
    assert.match(r.stdout, /the game server broke/);
  });
});
