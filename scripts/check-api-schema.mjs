// docs/api-schema.json is the service's published description exactly as ../shared/api-schema.json
// has it (the team's shared copy, holding the operations to come too): never edited by hand.
// `node scripts/check-api-schema.mjs` fails while the two differ; `--write` copies the shared one.
// Where ../shared is absent (a fresh clone, CI) there is nothing to compare: the docs copy stands.
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const docs = join(root, 'docs', 'api-schema.json');
const shared = join(root, '..', 'shared', 'api-schema.json');

if (!existsSync(shared)) {
  console.log('check-api-schema: no ../shared/api-schema.json here; docs/api-schema.json stands as it is.');
} else if (process.argv.includes('--write')) {
  copyFileSync(shared, docs);
  console.log('check-api-schema: docs/api-schema.json copied from ../shared/api-schema.json.');
} else if (!readFileSync(shared).equals(readFileSync(docs))) {
  console.error('check-api-schema: docs/api-schema.json differs from ../shared/api-schema.json: run node scripts/check-api-schema.mjs --write');
  process.exit(1);
} else {
  console.log('check-api-schema: docs/api-schema.json is ../shared/api-schema.json.');
}
