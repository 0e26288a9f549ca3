// Every command declared in package.json is registered in src/extension, and every
// registered command is declared; menus and welcome links name declared commands only.
// Registrations are found statically: `registerCommand(..., 'platformExplorer.x', ...)`.
// src/extension/commandIds.ts (the CommandId type the code uses, so a typo fails to compile) is
// generated from package.json: `node scripts/check-commands.mjs --write` updates it, and a check
// run fails while it is out of date.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const contributes = pkg.contributes ?? {};
// Display strings are `%key%` references into package.nls.json; a missing key would show raw.
const missing = new Set();
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8'));
function text(value, where) {
  const m = /^%(.+)%$/.exec(String(value ?? ''));
  if (!m) return value;
  if (!(m[1] in nls) && !missing.has(m[1])) {
    missing.add(m[1]);
    problems(`${where} names ${value}, which package.nls.json does not define`);
  }
  return nls[m[1]];
}

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const errors = [];
function problems(msg) {
  errors.push(msg);
}

const REGISTER_RE = /registerCommand\(\s*(?:[A-Za-z_$][\w$]*\s*,\s*)?['"`](platformExplorer\.[\w.]+)['"`]/g;
const registered = new Map();
for (const file of walk(join(root, 'src/extension'))) {
  for (const m of readFileSync(file, 'utf8').matchAll(REGISTER_RE)) {
    if (registered.has(m[1])) {
      problems(`${m[1]} is registered twice (${registered.get(m[1])} and ${relative(root, file)})`);
    }
    registered.set(m[1], relative(root, file));
  }
}

const declared = new Set();
for (const c of contributes.commands ?? []) {
  if (declared.has(c.command)) problems(`${c.command} is declared twice in contributes.commands`);
  declared.add(c.command);
  if (!text(c.title, c.command)) problems(`${c.command} has no title`);
}

for (const id of declared) {
  if (!registered.has(id)) problems(`${id} is declared in package.json but never registered in src/extension`);
}
for (const [id, file] of registered) {
  if (!declared.has(id)) problems(`${id} is registered in ${file} but not declared in package.json contributes.commands`);
}
for (const [where, entries] of Object.entries(contributes.menus ?? {})) {
  for (const e of entries) {
    if (e.command && !declared.has(e.command)) problems(`menus.${where} names undeclared command ${e.command}`);
  }
}
for (const w of contributes.viewsWelcome ?? []) {
  for (const m of String(text(w.contents, `viewsWelcome of ${w.view}`)).matchAll(/command:(platformExplorer\.[\w.]+)/g)) {
    if (!declared.has(m[1])) problems(`viewsWelcome links to undeclared command ${m[1]}`);
  }
}

// Every other `%key%` (views, settings, walkthrough, displayName) must resolve too.
(function refs(value, where) {
  if (typeof value === 'string') text(value, where);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) refs(v, `${where}.${k}`);
})(pkg, 'package.json');

const ID_FILE = join(root, 'src/extension/commandIds.ts');
const ids = [...declared].sort();
const generated = [
  '// Generated from package.json by `node scripts/check-commands.mjs --write`: every declared command ID.',
  '// The type makes a command ID that package.json does not declare a compile error.',
  'export const COMMAND_IDS = [',
  ...ids.map((id) => `  '${id}',`),
  '] as const;',
  '',
  'export type CommandId = (typeof COMMAND_IDS)[number];',
  '',
].join('\n');
if (process.argv.includes('--write')) {
  writeFileSync(ID_FILE, generated);
} else {
  let current = '';
  try { current = readFileSync(ID_FILE, 'utf8'); } catch { /* missing: reported below */ }
  if (current !== generated) problems('src/extension/commandIds.ts is out of date with package.json: run node scripts/check-commands.mjs --write');
}

if (errors.length > 0) {
  console.error(`check-commands: ${errors.length} problem(s):\n  ${errors.join('\n  ')}`);
  process.exit(1);
}
console.log(`check-commands: ${declared.size} commands declared and registered.`);
