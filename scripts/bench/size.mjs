// Bundle size and what loads lazily: the production extension bundle (esbuild metafile), undici
// alone, and which modules activation evaluates versus those behind a dynamic import().
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { REPO } from './lib.mjs';

// The production options of esbuild.mjs for the extension bundle.
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
    const entry = 'src/extension/extension.ts';
    const main = await esbuild.build({ ...production, entryPoints: { extension: entry }, outdir: dir, metafile: true });
    const [output] = Object.values(main.metafile.outputs).filter((o) => o.entryPoint === entry);
    const eager = eagerInputs(main.metafile, entry);
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

    await esbuild.build({
      ...production, stdin: { contents: "module.exports = require('undici');", resolveDir: REPO }, outfile: join(dir, 'undici.js'),
    });

    // The same extension with undici and the lazily imported emulator as files of their own
    // (require('./undici.js') still runs only when the client module is first used). The client
    // itself stays in the main bundle: its PlatformError class must be the one the extension's
    // `instanceof` checks see.
    await esbuild.build({
      ...production, entryPoints: { extension: entry }, outdir: join(dir, 'split'),
      plugins: [{
        name: 'split-lazy',
        setup(b) {
          b.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.js', external: true }));
          // The extension imports the emulator (server.ts, seed.ts for the demo) only with import().
          b.onResolve({ filter: /(^|\/)emulator\/(server|seed)$/ }, (a) => (a.kind === 'dynamic-import' ? { path: './emulator-lib.js', external: true } : undefined));
        },
      }],
    });

    return {
      mainBytes: statSync(join(dir, 'extension.js')).size,
      eagerBytes,
      undiciBytes: statSync(join(dir, 'undici.js')).size,
      splitMainBytes: statSync(join(dir, 'split', 'extension.js')).size,
      undiciEager: [...eager].some((p) => p.startsWith('node_modules/undici/')),
      clientEager: eager.has('src/core/api/client.ts'),
      heaviest,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
