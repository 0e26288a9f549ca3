#!/usr/bin/env node
// npm run package:cli: the command line as an npm package of its own (packages/cli: name, bin,
// files), holding one production bundle, dist/cli.js, and nothing to install beside it.
// Usage: node scripts/package/cli.mjs [--out DIR]   (default: the repository root); prints the .tgz path.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';
import { cliBuild, common } from '../../esbuild.mjs';
import { REPO_ROOT } from '../test-host/paths.mjs';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = resolve(values.out ?? REPO_ROOT);
const stage = mkdtempSync(join(tmpdir(), 'platform-explorer-cli-'));
try {
  await esbuild.build(cliBuild({ ...common, minify: true, sourcemap: false }, join(stage, 'dist')));
  chmodSync(join(stage, 'dist', 'cli.js'), 0o755);
  // The package's version is the extension's: one release of both.
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'packages', 'cli', 'package.json'), 'utf8'));
  pkg.version = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version;
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  copyFileSync(join(REPO_ROOT, 'packages', 'cli', 'README.md'), join(stage, 'README.md'));
  copyFileSync(join(REPO_ROOT, 'LICENSE'), join(stage, 'LICENSE'));
  mkdirSync(out, { recursive: true });
  const r = spawnSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: stage, encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(`package:cli: npm pack failed (exit ${r.status ?? r.signal}): ${r.stderr}`);
    process.exit(1);
  }
  const [packed] = JSON.parse(r.stdout);
  const names = packed.files.map((f) => f.path).sort();
  const expected = ['LICENSE', 'README.md', 'dist/cli.js', 'package.json'];
  if (JSON.stringify(names) !== JSON.stringify(expected)) {
    console.error(`package:cli: the package holds ${names.join(', ')}; expected ${expected.join(', ')}`);
    process.exit(1);
  }
  console.log(join(out, packed.filename));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
