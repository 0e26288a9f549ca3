// One source for each command: its declaration in its own file (src/extension/commands/define.ts),
// `export const xCommand = defineCommand({ id, title, menus…, parse, handler })`. From the
// declarations this generates, and `npm run lint` fails while any is out of date (`node
// scripts/check-commands.mjs --write` updates them all):
//  - package.json contributes.commands, .menus and .keybindings (everything else in package.json
//    stays hand-written), and package.nls.json's `command.<name>.title` texts;
//  - src/extension/commandIds.ts (the CommandId type, so a typo fails to compile);
//  - src/extension/commands/all.ts (every declaration registerCommands registers; a `lazy` one
//    through its bundle, src/extension/lazy/<bundle>.ts, which must export it).
// It also checks that a `declareCommand` (registered by hand) is registered with registerCommand,
// that nothing is registered without a declaration, and that every `%key%` and welcome link resolves.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { contributions, declarationFor, readDeclarations, titleKey, walk } from './commands/declarations.mjs';

const root = new URL('..', import.meta.url).pathname;
const write = process.argv.includes('--write');
const PKG_FILE = join(root, 'package.json');
const NLS_FILE = join(root, 'package.nls.json');
const pkgText = readFileSync(PKG_FILE, 'utf8');
const nlsText = readFileSync(NLS_FILE, 'utf8');
const pkg = JSON.parse(pkgText);
const nls = JSON.parse(nlsText);

const errors = [];
const problems = (msg) => errors.push(msg);

const COMMANDS_DIR = join(root, 'src/extension/commands');
const files = walk(join(root, 'src/extension')).sort();
const declarations = readDeclarations(root, files, problems, (id, name, code) => declarationFor(pkg, nls, id, name, code));
const byId = new Map();
for (const d of declarations) {
  if (byId.has(d.manifest.id)) problems(`${d.manifest.id} is declared twice (${byId.get(d.manifest.id).file} and ${d.file})`);
  byId.set(d.manifest.id, d);
  if (d.manifest.inView) byId.set(`${d.manifest.id}InView`, d);
}

// Registered by hand: registerCommand(s, 'platformExplorer.x', …), for a declareCommand only.
const REGISTER_RE = /registerCommand\(\s*(?:[A-Za-z_$][\w$]*\s*,\s*)?['"`](platformExplorer\.[\w.]+)['"`]/g;
const byHand = new Map();
for (const file of files) {
  for (const m of readFileSync(file, 'utf8').matchAll(REGISTER_RE)) byHand.set(m[1], relative(root, file));
}
for (const [id, file] of byHand) {
  const d = byId.get(id);
  if (!d) {
    problems(`${id} is registered in ${file} but has no declaration: write its declaration in its command file (then node scripts/check-commands.mjs --write):\n    ${declarationFor(pkg, nls, id)}`);
  } else if (d.kind === 'define') {
    problems(`${id} is registered twice: by its defineCommand in ${d.file} and by hand in ${file} (remove the registerCommand)`);
  }
}
for (const d of declarations) {
  if (d.kind === 'declare' && !byHand.has(d.manifest.id)) problems(`${d.manifest.id} is declared with declareCommand in ${d.file} but never registered with registerCommand`);
}

// Commands package.json has that no declaration has: added the old way (by hand in package.json).
// `--write --prune`: a command whose declaration was deleted on purpose leaves package.json.
const prune = write && process.argv.includes('--prune');
const oldStyle = new Set(errors.join('\n').match(/platformExplorer\.[\w]+/g) ?? []);
for (const c of pkg.contributes?.commands ?? []) {
  if (!byId.has(c.command) && !byHand.has(c.command) && !prune && !oldStyle.has(c.command)) {
    problems(`${c.command} is in package.json but has no declaration: package.json's commands, menus and keybindings are generated now. Write in its command file (replacing its registerCommand/defineCommand and its package.json/package.nls.json entries), then run node scripts/check-commands.mjs --write (a command removed on purpose: --write --prune):\n    ${declarationFor(pkg, nls, c.command)}`);
  }
}

// A lazy declaration is registered from main through its bundle, which must export it.
const LAZY_FILES = { deletion: 'deletion', panels: 'panels', lookups: 'lookups', 'emulator-commands': 'emulatorCommands', requests: 'dataRequests' };
for (const d of declarations.filter((x) => x.manifest.lazy !== undefined)) {
  const bundle = LAZY_FILES[d.manifest.lazy];
  if (!bundle) {
    problems(`${d.manifest.id}: lazy: '${d.manifest.lazy}' is not a bundle (${Object.keys(LAZY_FILES).join(', ')})`);
    continue;
  }
  const lazyFile = join(root, 'src/extension/lazy', `${bundle}.ts`);
  const from = relative(join(root, 'src/extension/lazy'), join(root, d.file)).replace(/\.ts$/, '').split(sep).join('/');
  if (!new RegExp(`export \\{[^}]*\\b${d.name}\\b[^}]*\\} from '${from.replace(/[.]/g, '\\.')}'`).test(readFileSync(lazyFile, 'utf8'))) {
    problems(`${d.manifest.id} is lazy: '${d.manifest.lazy}': add \`export { ${d.name} } from '${from}';\` to ${relative(root, lazyFile)}`);
  }
}

// The generated contributions, in place of the ones package.json has.
const gen = contributions(declarations);
const next = structuredClone(pkg);
next.contributes.commands = gen.commands;
next.contributes.menus = gen.menus;
next.contributes.keybindings = gen.keybindings;
const nextNls = {};
for (const [k, v] of Object.entries(nls)) {
  // A command title no declaration has any more is dropped; the others take the declaration's text.
  if (/^command\..+\.title$/.test(k) && !(k in gen.titles)) continue;
  nextNls[k] = k in gen.titles ? gen.titles[k] : v;
}
for (const [k, v] of Object.entries(gen.titles)) if (!(k in nextNls)) nextNls[k] = v;

// Display strings are `%key%` references into package.nls.json; a missing key would show raw.
(function refs(value, where) {
  if (typeof value === 'string') {
    const m = /^%(.+)%$/.exec(value);
    if (m && !(m[1] in nextNls)) problems(`${where} names ${value}, which package.nls.json does not define`);
  } else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) refs(v, `${where}.${k}`);
})(next, 'package.json');
const declared = new Set(gen.commands.map((c) => c.command));
for (const w of next.contributes.viewsWelcome ?? []) {
  const contents = String(w.contents).replace(/^%(.+)%$/, (_, k) => nextNls[k] ?? '');
  for (const m of contents.matchAll(/command:(platformExplorer\.[\w.]+)/g)) {
    if (!declared.has(m[1])) problems(`viewsWelcome of ${w.view} links to undeclared command ${m[1]}`);
  }
}
for (const d of declarations) if (titleKey(d.manifest.id) === 'command.category.title') problems(`${d.manifest.id}: reserved name`);

const ids = [...declared].sort();
const commandIds = [
  '// Generated from the command declarations by `node scripts/check-commands.mjs --write`: every command ID.',
  '// The type makes a command ID that no declaration has a compile error.',
  'export const COMMAND_IDS = [',
  ...ids.map((id) => `  '${id}',`),
  '] as const;',
  '',
  'export type CommandId = (typeof COMMAND_IDS)[number];',
  '',
].join('\n');

const eager = declarations.filter((d) => d.kind === 'define' && d.manifest.lazy === undefined);
const lazy = declarations.filter((d) => d.kind === 'define' && d.manifest.lazy !== undefined);
const importPath = (file) => {
  const from = relative(COMMANDS_DIR, join(root, file)).replace(/\.ts$/, '').split(sep).join('/');
  return from.startsWith('.') ? from : `./${from}`;
};
const lazyEntry = (d) => {
  const members = [`id: '${d.manifest.id}'`];
  if (d.manifest.inView) members.push('inView: true');
  if (d.manifest.operations) members.push(`operations: [${d.manifest.operations.map((o) => `'${o}'`).join(', ')}]`);
  members.push(`load: async () => (await import('../lazy/${LAZY_FILES[d.manifest.lazy]}')).${d.name}`);
  return `  { ${members.join(', ')} },`;
};
const imports = [...new Set(eager.map((d) => importPath(d.file)))];
const all = [
  '// Generated by `node scripts/check-commands.mjs --write` from each command file\'s own declaration',
  '// (`export const xCommand = defineCommand({ … })`, ./define.ts): registerCommands registers them all;',
  '// a lazy one through its bundle (../lazy), loaded when the command first runs.',
  "import type { AnyCommandDefinition, LazyCommand } from './define';",
  ...imports.map((from) => `import { ${eager.filter((d) => importPath(d.file) === from).map((d) => d.name).join(', ')} } from '${from}';`),
  '',
  'export const DECLARED_COMMANDS: readonly (AnyCommandDefinition | LazyCommand)[] = [',
  ...eager.map((d) => `  ${d.name},`),
  ...lazy.map(lazyEntry),
  '];',
  '',
].join('\n');

const outputs = [
  [PKG_FILE, pkgText, `${JSON.stringify(next, null, 2)}\n`],
  [NLS_FILE, nlsText, `${JSON.stringify(nextNls, null, 2)}\n`],
  [join(root, 'src/extension/commandIds.ts'), null, commandIds],
  [join(COMMANDS_DIR, 'all.ts'), null, all],
];
for (const [file, known, text] of outputs) {
  let current = known;
  if (current === null) {
    try { current = readFileSync(file, 'utf8'); } catch { current = ''; }
  }
  if (current === text) continue;
  if (write && errors.length === 0) writeFileSync(file, text);
  else problems(`${relative(root, file)} is out of date with the command declarations (src/extension/commands/define.ts): run node scripts/check-commands.mjs --write`);
}

if (errors.length > 0) {
  console.error(`check-commands: ${errors.length} problem(s):\n  ${errors.join('\n  ')}`);
  process.exit(1);
}
console.log(`check-commands: ${declared.size} commands (${declarations.length} declarations, ${lazy.length} lazy) generated and registered.`);

