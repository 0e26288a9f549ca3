// Bundle size and what loads lazily: the production extension bundle (esbuild metafile), undici
// and the emulator in files of their own, and which modules activation evaluates.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './lib.mjs';
import { buildExtension, LAZY_BUNDLES } from '../../esbuild.mjs';

const production = {
  bundle: true, platform: 'node', target: 'node20', format: 'cjs', minify: true, sourcemap: false,
  external: ['vscode'], logLevel: 'warning', absWorkingDir: REPO,
};

/** Top-level group of an input path: node_modules/<pkg> or src/<area>. */
function group(path) {
  const parts = path.split('/');
  if (parts[0] === 'node_modules') return parts.slice(0, parts[1].startsWith('@') ? 3 : 2).join('/');
  return parts.slice(0, 2).join('/');
}

/** Inputs reachable from `entry` without crossing a dynamic import(): what activation evaluates. */
function eagerInputs(meta, entry) {
  const seen = new Set([entry]);
  const stack = [entry];
  while (stack.length > 0) {
    for (const imp of meta.inputs[stack.pop()]?.imports ?? []) {
      if (imp.kind !== 'dynamic-import' && !imp.external && !seen.has(imp.path)) {
        seen.add(imp.path);
        stack.push(imp.path);
      }
    }
  }
  return seen;
}

export async function measureSizes() {
  const dir = mkdtempSync(join(tmpdir(), 'platform-bench-size-'));
  try {
    // The very bundles esbuild.mjs ships, built production-style into a temp folder.
    const { main: { metafile } } = await buildExtension(production, dir);
    const [output] = Object.entries(metafile.outputs).filter(([p]) => p.endsWith('extension.js')).map(([, o]) => o);
    const eager = eagerInputs(metafile, output.entryPoint);
    const byGroup = {};
    let eagerBytes = 0;
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const g = group(path);
      byGroup[g] ??= { bytes: 0, eagerBytes: 0 };
      byGroup[g].bytes += bytesInOutput;
      if (eager.has(path)) {
        byGroup[g].eagerBytes += bytesInOutput;
        eagerBytes += bytesInOutput;
      }
    }
    const heaviest = Object.entries(byGroup).sort((a, b) => b[1].bytes - a[1].bytes).map(([name, v]) => ({ name, ...v }));
    // undici is its own file; it loads at activation only if an eagerly evaluated module requires it.
    const undiciEager = [...eager].some((p) => (metafile.inputs[p]?.imports ?? []).some((i) => i.path === './undici.js' && i.kind !== 'dynamic-import'));
    const lazyBytes = Object.fromEntries(Object.keys(LAZY_BUNDLES).map((name) => [name, statSync(join(dir, `${name}.js`)).size]));
    return {
      mainBytes: statSync(join(dir, 'extension.js')).size,
      eagerBytes,
      undiciBytes: statSync(join(dir, 'undici.js')).size,
      emulatorLibBytes: statSync(join(dir, 'emulator-lib.js')).size,
      lazyBytes,
      undiciEager,
      clientEager: eager.has('src/core/api/client.ts'),
      // Modules importing 'vscode' in the main bundle, and the namespace copies of the API its load makes (esbuild.mjs: one).
      vscodeImporters: Object.values(metafile.inputs).filter((i) => i.imports.some((x) => x.original === 'vscode')).length,
      vscodeRequires: (readFileSync(join(dir, 'extension.js'), 'utf8').match(/require\("vscode"\)/g) ?? []).length,
      heaviest,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
