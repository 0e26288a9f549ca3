// Loads a CommonJS bundle through V8's code cache (vm.Script cachedData), as require() would make
// of it (same require.cache entry). The cache is a file per bundle content and runtime in a private
// folder (0700, ours, not a symlink) under the temp dir; anything unusable (no folder, a planted or
// shared folder, a stale or corrupt cache, a runtime without the API) falls back to compiling,
// never to failing. No side effects on import: the entry (./entry.ts) and its tests call it.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

export interface LoadedBundle {
  exports: Record<string, unknown>;
  /** Whether V8 took a cache file for this load. */
  cache: 'used' | 'rejected' | 'none';
  /** Wall ms of the load's steps: reading the file and its cache, compiling (or taking the cache), running the bundle's top level. */
  steps: { readMs: number; compileMs: number; runMs: number };
  /** Writes the cache once the code that ran at start-up is compiled (no-op when the cache was used). */
  saveCache(): void;
}

/** A folder only this user can write, or undefined. */
export function cacheFolder(root = tmpdir()): string | undefined {
  try {
    const uid = process.getuid?.();
    const dir = join(root, `platform-explorer-code-cache${uid === undefined ? '' : `-${uid}`}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o077) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/** Where the code cache of `file` lives (its name's prefix), for the benchmark to start cold. */
export function cachePlace(file: string, root?: string): { folder: string | undefined; prefix: string } {
  return { folder: cacheFolder(root), prefix: `${basename(file)}-${createHash('sha256').update(file).digest('hex').slice(0, 16)}-` };
}

/** Loads `file` as the CommonJS module require() would make of it (same require.cache entry), with its code cache. */
export function loadBundle(file: string, root?: string): LoadedBundle {
  const t0 = performance.now();
  const source = readFileSync(file, 'utf8');
  const folder = cacheFolder(root);
  // One cache per installed file (its path), named by the content and runtime it was made for.
  const { prefix } = cachePlace(file, root);
  const key = createHash('sha256').update(`${process.version}\0${process.arch}\0`).update(source).digest('hex').slice(0, 32);
  const cacheFile = folder && join(folder, `${prefix}${key}.bin`);
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile) cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const t1 = performance.now();
  const script = new Script(Module.wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const m = new Module(file, module);
  m.filename = file;
  m.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  const run = script.runInThisContext() as (...a: unknown[]) => void;
  const t2 = performance.now();
  // From here on the bundle's own code runs: its failure is the extension's, never retried.
  require.cache[file] = m;
  run.call(m.exports, m.exports, createRequire(file), m, file, dirname(file));
  m.loaded = true;
  const steps = { readMs: t1 - t0, compileMs: t2 - t1, runMs: performance.now() - t2 };
  const needed = cacheFile !== undefined && folder !== undefined && (cachedData === undefined || script.cachedDataRejected === true);
  return {
    exports: m.exports as Record<string, unknown>,
    steps,
    cache: cachedData === undefined ? 'none' : script.cachedDataRejected === true ? 'rejected' : 'used',
    saveCache: () => {
      if (!needed || folder === undefined) return;
      try {
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        renameSync(tmp, cacheFile);
        // The caches of this file's earlier versions are of no use any more.
        for (const old of readdirSync(folder)) {
          if (old.startsWith(prefix) && join(folder, old) !== cacheFile) rmSync(join(folder, old), { force: true });
        }
      } catch {
        // No cache this time: the next start compiles again.
      }
    },
  };
}
