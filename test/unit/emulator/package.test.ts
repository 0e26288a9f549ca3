// The platform-emulator package as a user gets it: `npm pack` of packages/emulator, installed
// into an empty folder outside the repository, run with npx there.
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const PACKAGE_DIR = join(process.cwd(), 'packages', 'emulator');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

describe('emulator: the platform-emulator package', function () {
  this.timeout(180_000);
  let work: string;
  let child: ChildProcess | undefined;
  before(() => { work = mkdtempSync(join(tmpdir(), 'emu-pkg-')); });
  /** npx does not pass signals on: the emulator runs in the group npx leads (spawned detached), signalled as one. */
  const stopGroup = async (c: ChildProcess, signal: NodeJS.Signals) => {
    const gone = new Promise((resolve) => c.stdout!.once('close', resolve));
    try { process.kill(-c.pid!, signal); } catch { /* already gone */ }
    await gone;
  };
  after(async () => {
    if (child && child.stdout && !child.stdout.closed) await stopGroup(child, 'SIGKILL');
    rmSync(work, { recursive: true, force: true });
  });

  it('packs with only its bundles, types, README and schema; installs into an empty folder with no dependency; runs with npx', async () => {
    const packed = JSON.parse(execFileSync(npm, ['pack', '--json', '--pack-destination', work], { cwd: PACKAGE_DIR, encoding: 'utf8' })) as { filename: string; files: { path: string }[] }[];
    assert.deepEqual(packed[0].files.map((f) => f.path).sort(), ['README.md', 'dist/emulator.js', 'dist/index.cjs', 'dist/index.mjs', 'index.d.mts', 'index.d.ts', 'package.json', 'seed.schema.json']);
    const app = join(work, 'app');
    execFileSync('mkdir', [app]);
    writeFileSync(join(app, 'package.json'), '{"name":"a-game-server","version":"1.0.0","private":true}');
    // A clean environment: no NODE_PATH, no repository on the way (cwd is the temp folder).
    const env = { PATH: process.env.PATH ?? '', HOME: work, npm_config_cache: join(work, 'npm-cache'), npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };
    execFileSync(npm, ['install', '--no-save', join(work, packed[0].filename)], { cwd: app, env, encoding: 'utf8' });
    assert.deepEqual(readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.')), ['platform-emulator'], 'no dependencies');
    const help = execFileSync(npx, ['--no-install', 'platform-emulator', '--help'], { cwd: app, env, encoding: 'utf8' });
    assert.match(help, /usage: platform-emulator/);
    // One release: the package, its program and the extension carry one version.
    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
    assert.equal(execFileSync(npx, ['--no-install', 'platform-emulator', '--version'], { cwd: app, env, encoding: 'utf8' }), `${version}\n`);
    assert.equal((JSON.parse(readFileSync(join(app, 'node_modules', 'platform-emulator', 'package.json'), 'utf8')) as { version: string }).version, version);
    // A seed file of the user's, and the demo seed without --seed.
    writeFileSync(join(app, 'seed.json'), JSON.stringify({ titles: [{ titleId: 'C0FFEE', name: 'CI Game', secretKey: 'CIKEY0123456789ABCDEF' }], players: [{ storefrontNames: ['ci_player'], titles: { C0FFEE: {} } }] }));
    for (const args of [['--seed', 'seed.json'], []]) {
      const c = spawn(npx, ['--no-install', 'platform-emulator', ...args, '--port', '0', '--json'], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      child = c;
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: c.stdout! }).once('line', resolve);
        c.once('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      const info = JSON.parse(line) as { endpoint: string; titles: { titleId: string; secretKey: string }[] };
      const origin = new URL(info.endpoint.replace('/{titleId}', '')).origin;
      assert.equal((await fetch(`${origin}/_emulator/ready`)).status, 200);
      const { titleId, secretKey } = info.titles[0];
      const r = await fetch(info.endpoint.replace('{titleId}', titleId) + '/Server/GetPlatformIDsFromStorefrontNames', {
        method: 'POST', headers: { 'Content-Type': 'application/json', 'X-SecretKey': secretKey }, body: JSON.stringify({ StorefrontNames: ['ci_player', 'racer_ana_0'] }),
      });
      assert.equal(r.status, 200);
      const linked = ((await r.json()) as { data: { Data: { PlatformId: string | null }[] } }).data.Data.map((d) => d.PlatformId !== null);
      assert.deepEqual(linked, args.length ? [true, false] : [false, true], args.length ? 'the seed file' : 'the demo seed');
      // Stopped: the emulator itself exits (its end of stdout closes) and its port stops answering.
      await stopGroup(c, 'SIGTERM');
      await assert.rejects(fetch(`${origin}/_emulator/ready`));
    }
  });
});
