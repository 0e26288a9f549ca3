// What a VSIX of Platform Explorer may and must hold. Returns a list of problems (empty = fine).
import { LAZY_BUNDLES } from '../../esbuild.mjs';

const REQUIRED = [
  'extension/package.json', 'extension/dist/main.js', 'extension/dist/extension.js', 'extension/dist/cli.js',
  // What the main bundle loads on first use (.vscodeignore lists each).
  ...['undici', 'emulator-lib', ...Object.keys(LAZY_BUNDLES)].map((name) => `extension/dist/${name}.js`), 'extension/media/platform.svg', 'extension/media/panel.css',
  'extension/readme.md', 'extension/changelog.md', 'extension/LICENSE.txt', 'extension/package.nls.json',
  'extension/media/walkthrough/addTitle.md',
];
// The VSIX's own files, then the shipped files (vsce may rename README/CHANGELOG/LICENSE).
const ALLOWED = [
  /^\[Content_Types\]\.xml$/, /^extension\.vsixmanifest$/,
  /^extension\/package\.json$/, /^extension\/package\.nls(\.[a-z-]+)?\.json$/,
  /^extension\/(readme\.md|changelog\.md|LICENSE\.txt)$/i,
  /^extension\/dist\/[\w-]+\.js$/, /^extension\/dist\/webview\/[\w-]+\.js$/,
  /^extension\/media\/[\w./-]+\.(svg|png|css|md)$/,
];

export function checkVsixEntries(entries) {
  const problems = [];
  const lower = new Set(entries.map((e) => e.toLowerCase()));
  for (const r of REQUIRED) if (!lower.has(r.toLowerCase())) problems.push(`missing ${r}`);
  if (!entries.some((e) => /^extension\/dist\/webview\/[\w-]+\.js$/.test(e))) problems.push('missing the webview bundles (extension/dist/webview/*.js)');
  for (const e of entries) {
    if (/\.map$/.test(e) || /(^|\/)(src|test|out|node_modules|scripts|\.vscode-test|docs)\//.test(e) || !ALLOWED.some((re) => re.test(e))) {
      problems.push(`unexpected ${e}`);
    }
  }
  return problems;
}
