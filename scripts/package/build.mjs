#!/usr/bin/env node
// npm run package: production bundles, then a VSIX with @vscode/vsce (the allow-list in
// .vscodeignore decides what goes in), then a check of what went in.
// Usage: node scripts/package/build.mjs [--out FILE]   (default: platform-explorer-<version>.vsix)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../test-host/paths.mjs';
import { checkVsixEntries } from './check.mjs';
import { zipEntries } from './zip.mjs';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
const out = resolve(values.out ?? join(REPO_ROOT, `${pkg.name}-${pkg.version}.vsix`));

function run(cmd, args) {
  const shown = (a) => (a.startsWith(REPO_ROOT) ? relative(REPO_ROOT, a) || '.' : a);
  console.log(`$ ${[cmd === process.execPath ? 'node' : cmd, ...args].map(shown).join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: REPO_ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`package: ${cmd} ${args[0]} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

run(process.execPath, [join(REPO_ROOT, 'esbuild.mjs'), '--production']);
// --no-dependencies: everything the extension needs is bundled into dist/.
// --allow-missing-repository: no public repository yet.
// --no-rewrite-relative-links: the README's screenshots are repository files, not shipped.
run(process.execPath, [join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package',
  '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--out', out]);

const problems = checkVsixEntries(zipEntries(out));
if (problems.length > 0) {
  console.error(`package: ${relative(REPO_ROOT, out)} holds what it must not, or lacks what it must:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`package: ${relative(REPO_ROOT, out)} checked (bundles, media, README, CHANGELOG, LICENSE, package.json only)`);
