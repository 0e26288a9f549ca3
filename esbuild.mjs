// One build script: the extension's bundles, the emulator CLI, the webview pages and the tests.
// `--production` minifies without source maps; otherwise linked source maps for debugging.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root: builds resolve from here wherever they are started. */
const ROOT = fileURLToPath(new URL('.', import.meta.url));

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

function walk(dir, pred) {
  let out = [];
  let names;
  try { names = readdirSync(dir); } catch { return out; }
  for (const name of names) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out = out.concat(walk(p, pred));
    else if (pred(p)) out.push(p);
  }
  return out;
}

export const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  external: ['vscode'],
};

// What runs only on first use lives in bundles of its own beside dist/extension.js, so
// activation loads a small file: undici (required by the client on the first request) and
// the emulator (imported by Start Local Emulator and the demo). The client itself stays in
// the main bundle: its PlatformError class must be the one the extension's checks see.
const lazyModules = {
  name: 'lazy-modules',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.js', external: true }));
    b.onResolve({ filter: /(^|\/)emulator\/(server|seed)$/ }, (a) =>
      a.kind === 'dynamic-import' ? { path: './emulator-lib.js', external: true } : undefined);
  },
};

/** The bundles the extension ships, into `outdir`; also used by the size benchmark. */
export function extensionBuilds(base, outdir = 'dist') {
  const options = { ...base, absWorkingDir: ROOT };
  return [
    { ...options, entryPoints: { extension: 'src/extension/extension.ts' }, outdir, metafile: true, plugins: [lazyModules] },
    { ...options, stdin: { contents: "module.exports = require('undici');", resolveDir: ROOT }, outfile: `${outdir}/undici.js` },
    {
      ...options,
      stdin: { contents: "export * from './src/emulator/server';\nexport * from './src/emulator/seed';", resolveDir: ROOT, loader: 'ts' },
      outfile: `${outdir}/emulator-lib.js`,
    },
    { ...options, entryPoints: { emulator: 'src/emulator/main.ts' }, outdir },
  ];
}

/** The command line (`platform-explorer`, package.json bin): the core with undici and the MCP SDK, one file. */
export function cliBuild(base, outdir = 'dist') {
  return { ...base, absWorkingDir: ROOT, entryPoints: { cli: 'src/cli/main.ts' }, outdir, banner: { js: '#!/usr/bin/env node' } };
}

function allBuilds() {
  const builds = extensionBuilds(common);
  builds.push(cliBuild(common));
  // The emulator package (packages/emulator, `platform-emulator`): one self-contained file.
  builds.push({ ...common, entryPoints: { emulator: 'src/emulator/main.ts' }, outdir: 'packages/emulator/dist', sourcemap: false, banner: { js: '#!/usr/bin/env node' } });
  // Webview pages: each src/webview/pages/*.ts becomes dist/webview/<name>.js for the browser.
  for (const entry of walk('src/webview/pages', (p) => p.endsWith('.ts'))) {
    builds.push({ ...common, platform: 'browser', target: 'es2022', format: 'iife', external: [], entryPoints: [entry], outdir: 'dist/webview' });
  }
  // Tests: each *.test.ts (and the integration runner) bundled on its own into out/,
  // keeping the test frameworks and the `vscode` module external.
  const testEntries = walk('test', (p) => p.endsWith('.ts') && !p.endsWith('.d.ts'));
  if (testEntries.length > 0) {
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
  return builds;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  process.chdir(ROOT);
  rmSync('out', { recursive: true, force: true });
  // A production build starts clean, so no stale source map is left to ship.
  if (production) rmSync('dist', { recursive: true, force: true });
  const builds = allBuilds();
  if (watch) {
    const ctxs = await Promise.all(builds.map((b) => esbuild.context(b)));
    await Promise.all(ctxs.map((c) => c.watch()));
  } else {
    await Promise.all(builds.map((b) => esbuild.build(b)));
  }
}
