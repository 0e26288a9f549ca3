// The command declarations of src/extension, read statically (TypeScript's parser, nothing run):
// every `export const xCommand = defineCommand({ … })` or `declareCommand({ … })`, with the
// literal members of its object (id, title, menus…; parse and handler are code and skipped), and
// what package.json's contributions and package.nls.json's titles are generated from them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const PREFIX = 'platformExplorer.';
/** The menus a declaration may name, in the order package.json lists them. */
export const MENU_LOCATIONS = ['view/title', 'view/item/context', 'commandPalette', 'editor/context', 'explorer/context'];
export const MANIFEST_KEYS = ['id', 'title', 'category', 'icon', 'palette', 'inView', 'menus', 'keybindings', 'lazy', 'operations'];
const CODE_KEYS = new Set(['parse', 'handler']);
/** The palette `when` of a command with an "…InView" variant, and of the variant. */
export const OUTSIDE_VIEW = 'focusedView != platformExplorer.titles';
export const IN_VIEW = 'focusedView == platformExplorer.titles';

export function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** A literal's value, or throws naming what is not one. */
function literal(node, where) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isArrayLiteralExpression(node)) return node.elements.map((e, i) => literal(e, `${where}[${i}]`));
  if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node)) return literal(node.expression, where);
  if (ts.isObjectLiteralExpression(node)) {
    const out = {};
    for (const p of node.properties) {
      if (!ts.isPropertyAssignment(p)) throw new Error(`${where}: only plain members (key: literal) can be read`);
      const key = ts.isIdentifier(p.name) || ts.isStringLiteral(p.name) ? p.name.text : undefined;
      if (key === undefined) throw new Error(`${where}: a computed member name cannot be read`);
      out[key] = literal(p.initializer, `${where}.${key}`);
    }
    return out;
  }
  throw new Error(`${where} must be a literal (a string, true, an array or an object of literals), not \`${node.getText()}\``);
}

/**
 * Every declaration in the files: { file, name, kind ('define' | 'declare'), manifest }.
 * `problems` gets what cannot be read; `oldForm(id, name, [handler, operations])` writes the
 * declaration that replaces an old positional defineCommand(id, handler, operations).
 */
export function readDeclarations(root, files, problems, oldForm) {
  const out = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    if (!/\b(defineCommand|declareCommand)\(/.test(text)) continue;
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const rel = relative(root, file);
    for (const st of sf.statements) {
      if (!ts.isVariableStatement(st) || !st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      for (const d of st.declarationList.declarations) {
        const call = d.initializer;
        if (!call || !ts.isCallExpression(call) || !ts.isIdentifier(call.expression)) continue;
        const fn = call.expression.text;
        if (fn !== 'defineCommand' && fn !== 'declareCommand') continue;
        const name = d.name.getText();
        const obj = call.arguments[0];
        if (!obj || !ts.isObjectLiteralExpression(obj)) {
          // The old form, defineCommand('platformExplorer.x', handler, operations): say what to write instead.
          const id = obj && ts.isStringLiteral(obj) ? obj.text : undefined;
          problems(`${rel}: ${name} = ${fn}(…) takes one object literal now: ${id && oldForm ? `write (its package.json and package.nls.json entries are then generated; keep the handler, and give it a parse: CONTRIBUTING.md):\n    ${oldForm(id, name, call.arguments.slice(1).map((x) => x.getText()))}` : `${fn}({ id: '${PREFIX}…', title: '…', … })`}`);
          continue;
        }
        const manifest = {};
        try {
          for (const p of obj.properties) {
            if (ts.isSpreadAssignment(p) || ts.isMethodDeclaration(p)) continue;
            const key = p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : undefined;
            if (key === undefined || CODE_KEYS.has(key)) continue;
            if (!MANIFEST_KEYS.includes(key)) throw new Error(`member "${key}" is not a declaration member (${MANIFEST_KEYS.join(', ')}, parse, handler)`);
            if (!ts.isPropertyAssignment(p)) throw new Error(`member "${key}" must be written \`${key}: <literal>\``);
            manifest[key] = literal(p.initializer, key);
          }
        } catch (e) {
          problems(`${rel}: ${name}: ${e.message}`);
          continue;
        }
        if (typeof manifest.id !== 'string' || !manifest.id.startsWith(PREFIX)) {
          problems(`${rel}: ${name} has no id '${PREFIX}…' (a string literal)`);
          continue;
        }
        if (typeof manifest.title !== 'string' || manifest.title.trim() === '') problems(`${rel}: ${manifest.id} has no title`);
        // VS Code shows the category in the palette only; a title that holds it reads "Platform: …" in every menu too.
        else if (/^\s*Platform\s*:/i.test(manifest.title)) problems(`${rel}: ${manifest.id}: write its title without "Platform: " and set category: true (the palette adds the category; the view's and editor's menus read the title alone)`);
        if (fn === 'declareCommand' && manifest.lazy) problems(`${rel}: ${manifest.id}: a declareCommand is registered by hand, so it cannot be lazy`);
        out.push({ file: rel, name, kind: fn === 'defineCommand' ? 'define' : 'declare', manifest });
      }
    }
  }
  return out;
}

const short = (id) => id.slice(PREFIX.length);
/** The package.nls.json key of a command's title ("…InView" variants share their command's). */
export const titleKey = (id) => `command.${short(id).replace(/InView$/, '')}.title`;

/** package.json's commands, menus and keybindings, and package.nls.json's titles, from the declarations. */
export function contributions(declarations) {
  const commands = [];
  const menus = Object.fromEntries(MENU_LOCATIONS.map((l) => [l, []]));
  const keybindings = [];
  const titles = {};
  for (const { manifest: m } of declarations) {
    const ids = m.inView ? [m.id, `${m.id}InView`] : [m.id];
    for (const id of ids) {
      commands.push({
        command: id,
        title: `%${titleKey(id)}%`,
        ...(m.category ? { category: '%command.category%' } : {}),
        ...(m.icon ? { icon: `$(${m.icon})` } : {}),
      });
    }
    titles[titleKey(m.id)] = m.title;
    for (const location of MENU_LOCATIONS) {
      if (location === 'commandPalette') continue;
      for (const e of m.menus?.[location] ?? []) {
        menus[location].push({ command: m.id, ...(e.when !== undefined ? { when: e.when } : {}), ...(e.group !== undefined ? { group: e.group } : {}) });
      }
    }
    if (m.inView) {
      menus.commandPalette.push({ command: m.id, when: OUTSIDE_VIEW }, { command: `${m.id}InView`, when: IN_VIEW });
    } else if (m.palette !== undefined) {
      menus.commandPalette.push({ command: m.id, when: m.palette });
    }
    for (const k of m.keybindings ?? []) {
      keybindings.push({ command: m.id, key: k.key, ...(k.mac ? { mac: k.mac } : {}), when: k.when, ...(k.args ? { args: k.args } : {}) });
    }
  }
  for (const l of MENU_LOCATIONS) if (menus[l].length === 0) delete menus[l];
  return { commands, menus, keybindings, titles };
}

/**
 * The declaration to write for a command package.json has by hand (the error message for a
 * command added the old way): its title, icon, menus and keybindings as the manifest has them.
 */
export function declarationFor(pkg, nls, id, name, code = []) {
  const c = (pkg.contributes?.commands ?? []).find((x) => x.command === id) ?? {};
  const title = String(c.title ?? '').replace(/^%(.+)%$/, (_, k) => nls[k] ?? k);
  const lines = [`id: '${id}'`, `title: ${JSON.stringify(title)}`];
  if (c.category) lines.push('category: true');
  if (c.icon) lines.push(`icon: '${String(c.icon).replace(/^\$\((.+)\)$/, '$1')}'`);
  const menus = {};
  for (const [location, entries] of Object.entries(pkg.contributes?.menus ?? {})) {
    for (const e of entries.filter((x) => x.command === id)) {
      if (location === 'commandPalette') lines.push(`palette: ${JSON.stringify(e.when)}`);
      else (menus[location] ??= []).push({ ...(e.when !== undefined ? { when: e.when } : {}), group: e.group });
    }
  }
  if (Object.keys(menus).length > 0) lines.push(`menus: ${JSON.stringify(menus)}`);
  const keys = (pkg.contributes?.keybindings ?? []).filter((k) => k.command === id).map(({ command: _, ...k }) => k);
  if (keys.length > 0) lines.push(`keybindings: ${JSON.stringify(keys)}`);
  if (code[1]) lines.push(`operations: ${code[1]}`);
  const handler = `parse: …, handler: ${code[0] ?? '…'}`;
  return `export const ${name ?? `${short(id).replace(/InView$/, '')}Command`} = defineCommand({ ${lines.join(', ')}, ${handler} });`;
}
