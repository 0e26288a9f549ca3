#!/usr/bin/env node
// `npm run test:one -- test/unit/core/ids.test.ts [more files] [mocha options such as --grep X]`:
// builds, then runs only the unit test files named (their .ts source or their out/…/.js build),
// with the options of .mocharc.json. Plain `mocha FILE` would not do: mocha adds the config's
// `spec` (every unit test) to the files named on its command line.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const isFile = (a) => /\.test\.(ts|js)$/.test(a);
const files = args.filter(isFile).map((a) => {
  const rel = relative(ROOT, resolve(a)).replace(/\\/g, '/');
  return rel.startsWith('out/') ? rel : `out/${rel.replace(/\.ts$/, '.js')}`;
});
if (files.length === 0 || files.some((f) => !f.startsWith('out/test/unit/'))) {
  console.error('usage: npm run test:one -- test/unit/<path>.test.ts [more files] [mocha options]');
  console.error('(integration tests: node scripts/test-host/run.mjs --grep "<title>", under the host lock)');
  process.exit(2);
}

const build = spawnSync(process.execPath, [join(ROOT, 'esbuild.mjs')], { stdio: 'inherit', cwd: ROOT });
if (build.status !== 0) process.exit(build.status ?? 1);
const missing = files.filter((f) => !existsSync(join(ROOT, f)));
if (missing.length > 0) {
  console.error(`not built: ${missing.join(', ')} (is the name right?)`);
  process.exit(2);
}

// The suite's own options, except its spec.
const config = JSON.parse(readFileSync(join(ROOT, '.mocharc.json'), 'utf8'));
const options = ['--no-config', `--timeout=${config.timeout}`];
if (config['enable-source-maps']) options.push('--enable-source-maps');
if (config.exit) options.push('--exit');
for (const r of config.require ?? []) options.push(`--require=${r}`);
const mocha = join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');
const run = spawnSync(process.execPath, [mocha, ...options, ...args.filter((a) => !isFile(a)), ...files], { stdio: 'inherit', cwd: ROOT });
process.exit(run.status ?? 1);
