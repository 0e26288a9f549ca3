// One build script: the extension's bundles, the emulator CLI, the webview pages and the tests.
// `--production` minifies without source maps; otherwise linked source maps for debugging.
import * as esbuild from 'esbuild';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, watch as watchFiles } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stripManifestsPlugin } from './scripts/commands/strip.mjs';

/** The repository root: builds resolve from here wherever they are started. */
const ROOT = fileURLToPath(new URL('.', import.meta.url));

const production = process.argv.includes('--production');
/** The release's version (package.json), as src/core/version.ts reports it. */
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
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
  // pg's optional native binding (pg-native) is never used: pg's JavaScript client is.
  external: ['vscode', 'pg-native'],
  define: { __PLATFORM_EXPLORER_VERSION__: JSON.stringify(VERSION) },
};

// What runs only on first use lives in bundles of its own beside dist/extension.js, so
// activation loads a small file: undici (required by the client on its first request), the
// emulator (Start Local Emulator, the demo), and the LAZY_BUNDLES below, each reached from the
// main bundle only through import() (require() once bundled). A module the main bundle holds is
// not copied into a lazy bundle: the lazy bundle takes the main bundle's own instance (its
// `__shared` export), so there is one Activity recorder, one tree node class, one error class,
// one in-process journal lock (core/deletion/lock.ts). A module two lazy bundles use and the main
// bundle does not (the journal, the plan, the pacer) is copied into each: keep module-level state
// and error classes out of such modules, or keep them in the main bundle.
export const LAZY_BUNDLES = {
  client: 'src/core/api/client.ts',
  deletion: 'src/extension/lazy/deletion.ts',
  panels: 'src/extension/lazy/panels.ts',
  'emulator-commands': 'src/extension/lazy/emulatorCommands.ts',
  requests: 'src/extension/lazy/dataRequests.ts',
  lookups: 'src/extension/lazy/lookups.ts',
};
const LAZY_BY_PATH = new Map(Object.entries(LAZY_BUNDLES).map(([name, file]) => [file, name]));

/** The repository-relative .ts file a relative import names, if it is one of ours. */
function sourceOf(resolveDir, spec) {
  const base = join(resolveDir, spec);
  for (const p of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(p) && statSync(p).isFile()) return relative(ROOT, p).split(sep).join('/');
  }
  return undefined;
}

/** `self`: the lazy bundle being built (its own entry is not external to it). */
const lazyModules = (self) => ({
  name: 'lazy-modules',
  setup(b) {
    // Each module's `import * as vscode from 'vscode'` would otherwise get a namespace object of
    // its own at load (esbuild's __toESM: a getter per member of the API, ~50 modules): one per bundle.
    b.onResolve({ filter: /^vscode$/ }, (a) => (a.namespace === 'vscode-api' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-api' }));
    b.onLoad({ filter: /.*/, namespace: 'vscode-api' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
    b.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.js', external: true }));
    b.onResolve({ filter: /(^|\/)emulator\/(server|seed)$/ }, (a) =>
      a.kind === 'dynamic-import' ? { path: './emulator-lib.js', external: true } : undefined);
    b.onResolve({ filter: /^\./ }, (a) => {
      if (a.kind !== 'dynamic-import') return undefined;
      const name = LAZY_BY_PATH.get(sourceOf(a.resolveDir, a.path));
      return name !== undefined && name !== self ? { path: `./${name}.js`, external: true } : undefined;
    });
  },
});

/** In a lazy bundle: each module the main bundle holds (`inMain`) is the main bundle's instance. */
const sharedWithMain = (inMain) => ({
  name: 'shared-with-main',
  setup(b) {
    b.onResolve({ filter: /^\.\/extension\.js$/ }, (a) => (a.namespace === 'main-shared' ? { path: './extension.js', external: true } : undefined));
    b.onResolve({ filter: /^\./ }, (a) => {
      if (a.kind === 'dynamic-import' || a.kind === 'entry-point') return undefined;
      const file = sourceOf(a.resolveDir, a.path);
      return file !== undefined && inMain.has(file) ? { path: file, namespace: 'main-shared' } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'main-shared' }, (a) => ({
      contents: `module.exports = require('./extension.js').__shared[${JSON.stringify(a.path)}];`,
      loader: 'js',
    }));
  },
});

/**
 * Builds the extension's bundles into `outdir` and returns their metafiles: the lazy bundles
 * against what the main bundle holds, then the main bundle exporting the modules they take.
 */
export async function buildExtension(base, outdir = 'dist') {
  // No import() left in the output: the entry (src/extension/entry.ts) runs the main bundle through
  // vm.Script, which has no dynamic import; a lazy bundle is require()d inside a promise instead.
  const options = { ...base, absWorkingDir: ROOT, metafile: true, supported: { 'dynamic-import': false } };
  const entry = 'src/extension/extension.ts';
  const probe = await esbuild.build({ ...options, entryPoints: [entry], outdir, write: false, plugins: [lazyModules(), stripManifestsPlugin] });
  const inMain = new Set(Object.keys(probe.metafile.inputs).filter((p) => p.startsWith('src/')));
  const others = Promise.all([
    esbuild.build({ ...options, stdin: { contents: "module.exports = require('undici');", resolveDir: ROOT }, outfile: `${outdir}/undici.js` }),
    esbuild.build({
      ...options,
      stdin: { contents: "export * from './src/emulator/server';\nexport * from './src/emulator/seed';", resolveDir: ROOT, loader: 'ts' },
      outfile: `${outdir}/emulator-lib.js`,
    }),
    esbuild.build({ ...options, entryPoints: { emulator: 'src/emulator/main.ts' }, outdir }),
    // package.json's main: loads extension.js through V8's code cache (src/extension/entry.ts).
    esbuild.build({ ...options, entryPoints: { main: 'src/extension/entry.ts' }, outdir }),
  ]);
  const lazy = await Promise.all(Object.entries(LAZY_BUNDLES).map(([name, file]) =>
    esbuild.build({ ...options, entryPoints: { [name]: file }, outdir, plugins: [lazyModules(name), sharedWithMain(inMain), stripManifestsPlugin] })));
  const shared = [...new Set(lazy.flatMap((r) => Object.keys(r.metafile.inputs)).filter((p) => p.startsWith('main-shared:')).map((p) => p.slice('main-shared:'.length)))].sort();
  const registry = [
    `export * from './${entry}';`,
    ...shared.map((p, i) => `import * as m${i} from './${p}';`),
    `export const __shared = { ${shared.map((p, i) => `${JSON.stringify(p)}: m${i}`).join(', ')} };`,
  ].join('\n');
  const main = await esbuild.build({
    ...options, stdin: { contents: registry, resolveDir: ROOT, loader: 'ts', sourcefile: 'extension-entry.ts' }, outfile: `${outdir}/extension.js`, plugins: [lazyModules(), stripManifestsPlugin],
  });
  return { main, lazy, others: await others, shared };
}

/** The command line (`platform-explorer`, package.json bin): the core with undici and the MCP SDK, one file. */
export function cliBuild(base, outdir = 'dist') {
  return { ...base, absWorkingDir: ROOT, entryPoints: { cli: 'src/cli/main.ts' }, outdir, banner: { js: '#!/usr/bin/env node' } };
}

/**
 * The emulator package's programmatic API (`import { startEmulator } from 'platform-emulator'`):
 * one CommonJS and one ES module bundle of src/emulator/api.ts, typed by packages/emulator/index.d.ts.
 */
export function emulatorApiBuilds(base, outdir = 'packages/emulator/dist') {
  const api = { ...base, absWorkingDir: ROOT, entryPoints: ['src/emulator/api.ts'], sourcemap: false };
  return [
    { ...api, format: 'cjs', outfile: `${outdir}/index.cjs` },
    // Bundled CommonJS modules call require(): an ES module has none of its own.
    { ...api, format: 'esm', outfile: `${outdir}/index.mjs`, banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" } },
  ];
}

/** Every build but the extension's (buildExtension). */
function otherBuilds() {
  const builds = [cliBuild(common)];
  // The emulator package (packages/emulator, `platform-emulator`): one self-contained file.
  builds.push({ ...common, entryPoints: { emulator: 'src/emulator/main.ts' }, outdir: 'packages/emulator/dist', sourcemap: false, banner: { js: '#!/usr/bin/env node' } });
  builds.push(...emulatorApiBuilds(common));
  // Webview pages: each src/webview/pages/*.ts becomes dist/webview/<name>.js for the browser.
  for (const entry of walk('src/webview/pages', (p) => p.endsWith('.ts'))) {
    builds.push({ ...common, platform: 'browser', target: 'es2022', format: 'iife', external: [], entryPoints: [entry], outdir: 'dist/webview' });
  }
  // Tests: each *.test.ts (and the integration runner) bundled on its own into out/,
  // keeping the test frameworks and the `vscode` module external.
  const testEntries = walk('test', (p) => p.endsWith('.ts') && !p.endsWith('.d.ts'));
  const isUnit = (p) => p.split(sep).join('/').startsWith('test/unit/');
  const testBuild = (entryPoints, plugins = []) => ({
    ...common,
    minify: false,
    sourcemap: 'inline',
    entryPoints,
    outbase: '.',
    outdir: 'out',
    external: ['vscode', 'mocha', 'playwright-core', 'fast-check'],
    plugins,
  });
  const integration = testEntries.filter((p) => !isUnit(p));
  if (integration.length > 0) builds.push(testBuild(integration));
  // Unit tests run in plain Node: their `vscode` is the double of test/unit/extension/vscodeDouble.ts.
  const vscodeDouble = { name: 'vscode-double', setup(b) { b.onResolve({ filter: /^vscode$/ }, () => ({ path: join(ROOT, 'test/unit/extension/vscodeDouble.ts') })); } };
  const unit = testEntries.filter(isUnit);
  if (unit.length > 0) builds.push(testBuild(unit, [vscodeDouble]));
  return builds;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  process.chdir(ROOT);
  rmSync('out', { recursive: true, force: true });
  // A production build starts clean, so no stale source map is left to ship.
  if (production) rmSync('dist', { recursive: true, force: true });
  const builds = otherBuilds();
  if (watch) {
    const ctxs = await Promise.all(builds.map((b) => esbuild.context(b)));
    await Promise.all(ctxs.map((c) => c.watch()));
    // The extension's bundles depend on each other: rebuilt together on a change under src/.
    let timer;
    const rebuild = () => buildExtension(common).catch((e) => console.error(e.message));
    await rebuild();
    watchFiles('src', { recursive: true }, () => { clearTimeout(timer); timer = setTimeout(rebuild, 100); });
  } else {
    await Promise.all([buildExtension(common), ...builds.map((b) => esbuild.build(b))]);
  }
}
