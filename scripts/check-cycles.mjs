#!/usr/bin/env node
// No import cycles under src/ (part of `npm run lint`): every relative `import … from` and
// `export … from`, type-only ones included (a type cycle is still two files that need each
// other), makes an edge; a dynamic import() does not (it is how a module loads another on
// first use). Prints each cycle found as a chain of files and exits 1.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : /\.ts$/.test(p) && !p.endsWith('.d.ts') ? [p] : [];
  });
}

function resolveImport(from, spec) {
  const base = join(dirname(from), spec);
  for (const p of [`${base}.ts`, join(base, 'index.ts'), base]) if (existsSync(p) && statSync(p).isFile()) return p;
  return undefined;
}

/** The relative modules a file imports statically. */
export function importsOf(file, text = readFileSync(file, 'utf8')) {
  // Comments out, so an example in a comment is no edge.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out = new Set();
  for (const m of code.matchAll(/(?:^|;|\n)\s*(?:import|export)\s[^;]*?\sfrom\s*['"](\.[^'"]+)['"]/g)) {
    const target = resolveImport(file, m[1]);
    if (target) out.add(target);
  }
  for (const m of code.matchAll(/(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]/g)) {
    const target = resolveImport(file, m[1]);
    if (target) out.add(target);
  }
  return [...out];
}

/** Every cycle's files, each cycle once (Tarjan's strongly connected components, then one path through each). */
export function findCycles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const components = [];
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const c = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(c);
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return components.map((c) => {
    // A shortest path from the component's first file back to itself, inside the component.
    const inside = new Set(c);
    const start = [...c].sort()[0];
    const prev = new Map([[start, undefined]]);
    const queue = [start];
    while (queue.length > 0) {
      const v = queue.shift();
      for (const w of graph.get(v) ?? []) {
        if (w === start) {
          const path = [v];
          for (let p = prev.get(v); p !== undefined; p = prev.get(p)) path.unshift(p);
          return { files: c, path: [...path, start] };
        }
        if (inside.has(w) && !prev.has(w)) {
          prev.set(w, v);
          queue.push(w);
        }
      }
    }
    return { files: c, path: c };
  });
}

const invokedDirectly = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (invokedDirectly) {
  const files = walk(join(ROOT, 'src'));
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  const cycles = findCycles(graph);
  const rel = (f) => relative(ROOT, f).replace(/\\/g, '/');
  for (const c of cycles) {
    console.error(`import cycle (${c.files.length} files): ${c.path.map(rel).join(' -> ')}`);
  }
  if (cycles.length > 0) {
    console.error('Break it: move what both need into a third file, or pass it in (a constructor or a parameter).');
    process.exit(1);
  }
  console.log(`No import cycles among ${files.length} files under src/.`);
}
