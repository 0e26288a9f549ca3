#!/usr/bin/env node
// Every eslint-disable comment under src/ gives its reason (part of `npm run lint`):
// `// eslint-disable-next-line complexity -- one case per flag`. A bare disable hides a rule
// from the next reader without saying why it does not apply there.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : /\.tsx?$/.test(p) ? [p] : [];
  });
}

const bare = [];
for (const file of walk(join(ROOT, 'src'))) {
  readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    if (/eslint-disable/.test(line) && !/eslint-disable[^\n]*\s--\s+\S/.test(line)) bare.push(`${relative(ROOT, file)}:${i + 1}`);
  });
}
if (bare.length > 0) {
  console.error(`check-disables: ${bare.length} eslint-disable comment(s) without a reason; add " -- why the rule does not fit here":\n  ${bare.join('\n  ')}`);
  process.exit(1);
}
console.log('check-disables: every eslint-disable under src/ says why.');
