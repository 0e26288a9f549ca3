// An esbuild plugin for the extension's bundles: a command declaration's manifest members (title,
// icon, menus, keybindings… : what package.json is generated from) are left out of the code, so a
// declaration costs the bundle its id, operations, parse and handler only. Lines are kept (the
// removed text becomes as many line breaks), so source maps still point at the right line.
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const MANIFEST_ONLY = new Set(['title', 'category', 'icon', 'palette', 'menus', 'keybindings', 'lazy']);

/** The source without the manifest-only members of its defineCommand/declareCommand objects. */
export function stripManifests(text, file = 'x.ts') {
  if (!/\b(defineCommand|declareCommand)\(\s*\{/.test(text)) return text;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const cuts = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && /^(define|declare)Command$/.test(node.expression.text)) {
      const obj = node.arguments[0];
      if (obj && ts.isObjectLiteralExpression(obj)) {
        for (const p of obj.properties) {
          if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && MANIFEST_ONLY.has(p.name.text)) {
            let end = p.getEnd();
            if (text[end] === ',') end += 1;
            cuts.push([p.getStart(sf), end]);
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  let out = text;
  for (const [start, end] of cuts.sort((a, b) => b[0] - a[0])) {
    out = out.slice(0, start) + out.slice(start, end).replace(/[^\n]/g, '') + out.slice(end);
  }
  return out;
}

export const stripManifestsPlugin = {
  name: 'strip-command-manifests',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]extension[\\/]commands[\\/].*\.ts$/ }, (a) => ({ contents: stripManifests(readFileSync(a.path, 'utf8'), a.path), loader: 'ts' }));
  },
};
