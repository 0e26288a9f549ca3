#!/usr/bin/env node
// npm run release:check: everything a release ships, built and checked as users get it.
//  1. One version: package.json, packages/cli and packages/emulator agree, the emulator's examples
//     pin it, and CHANGELOG.md has its `## VERSION (date)` section.
//  2. The VSIX (npm run package), the command line's npm package (npm run package:cli) and the
//     emulator's (npm pack packages/emulator), built into a temporary folder.
//  3. Their contents: each exactly its expected files and entry points, at that version; none
//     holding a test or source file, a source map, .env/.npmrc, a key or token, this machine's
//     paths or a secret-looking environment value (scripts/package/contents.mjs); the packed
//     programs' --version is the release.
//  4. The VSIX installed into the test VS Code (test/ui/vsix.ui.mjs, under the machine's lock
//     /tmp/vscode-host.lock, as every VS Code host here): it activates, the Titles view shows,
//     Start Local Emulator, then a Storefront lookup against that emulator.
// Usage: node scripts/package/release-check.mjs [--no-vscode] [--keep]
//   --no-vscode skips step 4 (says so; the release is then not checked); --keep keeps the packages.
// Leaves production bundles in dist/ (as npm run package does). Exit code 1 naming each problem.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../test-host/paths.mjs';
import { checkVsixEntries } from './check.mjs';
import { buildSecrets, checkContents } from './contents.mjs';
import { zipFiles } from './zip.mjs';

const { values } = parseArgs({ options: { 'no-vscode': { type: 'boolean' }, keep: { type: 'boolean' } } });
const problems = [];
const log = (msg) => console.log(`release:check: ${msg}`);
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const run = (args, opts = {}) => execFileSync(args[0], args.slice(1), { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...opts });

// 1. One version.
const version = readJson(join(REPO_ROOT, 'package.json')).version;
for (const pkg of ['cli', 'emulator']) {
  const v = readJson(join(REPO_ROOT, 'packages', pkg, 'package.json')).version;
  if (v !== version) problems.push(`packages/${pkg}/package.json is version ${v}, package.json ${version}: give both the release's version`);
}
// The emulator's examples install a pinned version: the release's.
const examples = join(REPO_ROOT, 'packages', 'emulator', 'examples');
for (const name of readdirSync(examples)) {
  for (const [, v] of readFileSync(join(examples, name), 'utf8').matchAll(/platform-emulator@([\w.-]+)/g)) {
    if (v !== version) problems.push(`packages/emulator/examples/${name} installs platform-emulator@${v}, not ${version}: pin the release`);
  }
}
const changelog = readFileSync(join(REPO_ROOT, 'CHANGELOG.md'), 'utf8');
if (!new RegExp(`^## ${version.replace(/\./g, '\\.')} \\(\\d{4}-\\d{2}-\\d{2}\\)$`, 'm').test(changelog)) {
  problems.push(`CHANGELOG.md has no "## ${version} (YYYY-MM-DD)" section: move the Unreleased lines under one`);
}
log(`version ${version}`);

// 2. Build the three packages.
const out = mkdtempSync(join(tmpdir(), 'platform-release-'));
const vsix = join(out, `platform-explorer-${version}.vsix`);
try {
  run([process.execPath, join(REPO_ROOT, 'scripts', 'package', 'build.mjs'), '--out', vsix], { stdio: ['ignore', 'inherit', 'inherit'] });
  const cliTgz = run([process.execPath, join(REPO_ROOT, 'scripts', 'package', 'cli.mjs'), '--out', out]).trim().split('\n').pop();
  // build.mjs's production build wrote packages/emulator/dist/emulator.js; pack that.
  const [emu] = JSON.parse(run(['npm', 'pack', '--json', '--pack-destination', out], { cwd: join(REPO_ROOT, 'packages', 'emulator') }));
  const emuTgz = join(out, emu.filename);
  log(`built ${[vsix, cliTgz, emuTgz].map((f) => `${relative(out, f)} (${Math.round(statSync(f).size / 1024)} KB)`).join(', ')} in ${out}`);

  // 3. Contents.
  const secrets = buildSecrets(REPO_ROOT);
  // The check must be able to fail: each kind of planted file is reported.
  const planted = [['extension/.env', 'X=1'], ['extension/dist/cli.js.map', '{}'], ['extension/test/a.test.js', ''],
    ['extension/dist/a.js', `'-----BEGIN PRIVATE KEY-----\\n${'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC'.repeat(2)}'`], ['extension/dist/b.js', `x("${REPO_ROOT}/src")`]];
  for (const [name, text] of planted) {
    if (checkContents('planted', [{ name, data: Buffer.from(text) }], secrets).length === 0) problems.push(`the content check misses ${name}`);
  }
  const vsixFiles = zipFiles(vsix);
  problems.push(...checkVsixEntries(vsixFiles.map((f) => f.name)).map((p) => `VSIX: ${p}`));
  problems.push(...checkContents('VSIX', vsixFiles, secrets));
  const file = (name) => vsixFiles.find((f) => f.name === name)?.data.toString('utf8') ?? '';
  const manifest = JSON.parse(file('extension/package.json') || '{}');
  if (manifest.version !== version) problems.push(`VSIX: extension/package.json is version ${manifest.version}`);
  if (!vsixFiles.some((f) => f.name === `extension/${manifest.main?.replace(/^\.\//, '')}`)) problems.push(`VSIX: its main, ${manifest.main}, is not in it`);
  if (!file('extension.vsixmanifest').includes(`Version="${version}"`)) problems.push(`VSIX: extension.vsixmanifest does not name version ${version}`);

  for (const [tgz, name, bin, expected] of [
    [cliTgz, 'platform-explorer', 'dist/cli.js', ['LICENSE', 'README.md', 'dist/cli.js', 'package.json']],
    [emuTgz, 'platform-emulator', 'dist/emulator.js', ['README.md', 'dist/emulator.js', 'package.json', 'seed.schema.json']],
  ]) {
    const dir = join(out, name);
    mkdirSync(dir);
    run(['tar', '-xzf', tgz, '-C', dir]);
    const root = join(dir, 'package');
    const walk = (d) => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
    const files = walk(root).map((f) => ({ name: relative(root, f), data: readFileSync(f) }));
    const names = files.map((f) => f.name).sort();
    if (JSON.stringify(names) !== JSON.stringify(expected)) problems.push(`${name}: holds ${names.join(', ')}; expected ${expected.join(', ')}`);
    problems.push(...checkContents(name, files, secrets));
    const pkg = readJson(join(root, 'package.json'));
    if (pkg.name !== name || pkg.version !== version) problems.push(`${name}: its package.json is ${pkg.name}@${pkg.version}`);
    if (pkg.bin?.[name] !== bin) problems.push(`${name}: its bin ${name} is ${pkg.bin?.[name]}, not ${bin}`);
    if (!readFileSync(join(root, bin), 'utf8').startsWith('#!/usr/bin/env node\n')) problems.push(`${name}: ${bin} does not start with #!/usr/bin/env node`);
    const r = spawnSync(process.execPath, [join(root, bin), '--version'], { encoding: 'utf8', cwd: out });
    if (r.status !== 0 || r.stdout !== `${version}\n`) problems.push(`${name}: ${bin} --version printed ${JSON.stringify(r.stdout)} (exit ${r.status}), not ${version}`);
  }
  log(`contents checked: VSIX ${vsixFiles.length} files, ${relative(out, cliTgz)}, ${relative(out, emuTgz)}`);

  // 4. The VSIX in the test VS Code.
  if (values['no-vscode']) {
    log('--no-vscode: the VSIX was not installed into VS Code; this is not a release check');
    problems.push('the VS Code smoke test was skipped (--no-vscode)');
  } else {
    run([process.execPath, join(REPO_ROOT, 'scripts', 'test-host', 'install.mjs')], { stdio: ['ignore', 'inherit', 'inherit'] });
    const ui = [process.execPath, join(REPO_ROOT, 'test', 'ui', 'vsix.ui.mjs')];
    const hasFlock = spawnSync('flock', ['--version'], { stdio: 'ignore' }).status === 0;
    const cmd = hasFlock ? ['flock', '/tmp/vscode-host.lock', ...ui] : ui;
    log(`$ ${cmd.map((a) => (a.startsWith(REPO_ROOT) ? relative(REPO_ROOT, a) : a)).join(' ')}   (PLATFORM_VSIX=${relative(out, vsix)})`);
    const r = spawnSync(cmd[0], cmd.slice(1), { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, PLATFORM_VSIX: vsix } });
    if (r.status !== 0) problems.push(`the VSIX's smoke test in VS Code failed (exit ${r.status ?? r.signal}); its screenshots are in test-results/ui/`);
  }
} finally {
  if (values.keep) log(`packages kept in ${out}`);
  else if (existsSync(out)) rmSync(out, { recursive: true, force: true });
}

if (problems.length > 0) {
  console.error(`release:check: ${version} is not ready (${problems.length} problem(s)):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
log(`${version} is ready: the VSIX, platform-explorer and platform-emulator built, checked, and the VSIX smoke-tested in VS Code`);
