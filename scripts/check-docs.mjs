#!/usr/bin/env node
// Part of `npm run lint`: the README stays a page a newcomer reads (under 16 KB; every setting
// the extension contributes is in its Settings table), and every relative link in README.md,
// CONTRIBUTING.md and docs/*.md reaches a file of the repository, and its #anchor a heading there.
// Usage: node scripts/check-docs.mjs   (exit code 1 naming each problem and the fix)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const README_MAX_BYTES = 16 * 1024;

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading) {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function headings(text) {
  const out = new Set();
  let fence = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fence = !fence;
    const m = !fence && /^#{1,6} (.*)$/.exec(line);
    if (m) out.add(anchorOf(m[1]));
  }
  return out;
}

/** Relative links `[text](target)` and `![alt](target)` outside code fences and code spans. */
export function linksOf(text) {
  const out = [];
  let fence = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fence = !fence;
    if (fence) continue;
    for (const m of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!/^[a-z][a-z0-9+.-]*:/i.test(m[1])) out.push(m[1]);
    }
  }
  return out;
}

export function checkDocs(root = ROOT) {
  const problems = [];
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const size = Buffer.byteLength(readme);
  if (size > README_MAX_BYTES) {
    problems.push(`README.md is ${size} bytes, over ${README_MAX_BYTES}: move reference text to a page under docs/ and link it`);
  }
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  for (const setting of Object.keys(pkg.contributes?.configuration?.properties ?? {})) {
    if (!readme.includes(`\`${setting}\``)) problems.push(`README.md: the setting ${setting} is not in its Settings table; add a row`);
  }
  const pages = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  for (const page of pages) {
    if (!existsSync(join(root, page))) continue;
    for (const link of linksOf(readFileSync(join(root, page), 'utf8'))) {
      const [path, anchor] = link.split('#');
      const target = path === '' ? join(root, page) : resolve(dirname(join(root, page)), decodeURIComponent(path));
      const name = relative(root, target);
      if (!existsSync(target)) {
        problems.push(`${page}: the link ${link} reaches no file (${name}); fix the path`);
        continue;
      }
      if (anchor && target.endsWith('.md') && !headings(readFileSync(target, 'utf8')).has(anchor)) {
        problems.push(`${page}: the link ${link} names no heading of ${name}; use one of its headings' anchors`);
      }
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkDocs();
  if (problems.length > 0) {
    console.error(`check-docs: ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
}
