// One build script: the extension bundle, the emulator bundle and the test bundles.
// `--production` minifies without source maps; otherwise linked source maps for debugging.
import * as esbuild from 'esbuild';
import { readdirSync, statSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

function walk(dir, pred) {
  let out = [];
  let names = [];
  try { names = readdirSync(dir); } catch { return out; }
  for (const name of names) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out = out.concat(walk(p, pred));
    else if (pred(p)) out.push(p);
  }
  return out;
}

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  external: ['vscode'],
};

const builds = [
  { ...common, entryPoints: { extension: 'src/extension/extension.ts' }, outdir: 'dist', metafile: true },
  { ...common, entryPoints: { emulator: 'src/emulator/main.ts' }, outdir: 'dist' },
];

// Webview pages: each src/webview/pages/*.ts becomes dist/webview/<name>.js for the browser.
for (const entry of walk('src/webview/pages', (p) => p.endsWith('.ts'))) {
  builds.push({
    ...common,
    platform: 'browser',
    target: 'es2022',
    format: 'iife',
    external: [],
    entryPoints: [entry],
    outdir: 'dist/webview',
  });
}

// Tests: each *.test.ts (and the integration runner) bundled on its own into out/,
// keeping the test frameworks and the `vscode` module external.
const testEntries = walk('test', (p) => p.endsWith('.ts') && !p.endsWith('.d.ts'));
if (testEntries.length > 0) {
  rmSync('out', { recursive: true, force: true });
  builds.push({
    ...common,
    minify: false,
    sourcemap: 'inline',
    entryPoints: testEntries,
    outbase: '.',
    outdir: 'out',
    external: ['vscode', 'mocha', 'playwright-core', 'fast-check'],
  });
}

const existing = builds.filter((b) => Object.values(b.entryPoints).every((e) => { try { return statSync(e).isFile(); } catch { return false; } }));

if (watch) {
  const ctxs = await Promise.all(existing.map((b) => esbuild.context(b)));
  await Promise.all(ctxs.map((c) => c.watch()));
} else {
  await Promise.all(existing.map((b) => esbuild.build(b)));
}
