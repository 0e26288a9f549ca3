// Each row of the operation table against its published description (docs/api-schema.json): one
// test per row, failing with one line that names the operation, what differs and the fix, instead
// of the emulator's out-of-contract answers surfacing as 500s in other suites.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { OPERATIONS, type OperationName } from '../../../src/core/api/operations';
import { rowProblems } from './rowProblems';
import { published } from './published';

const names = Object.keys(OPERATIONS) as OperationName[];
/** The shared copy the docs follow (present on the team's machines, not in a clone). */
const SHARED = resolve(__dirname, '../../../../../shared/api-schema.json');

describe('contract: every row of the operation table is its published description', () => {
  for (const n of names) {
    it(`${n} (${OPERATIONS[n].path})`, () => {
      const problems = rowProblems(n, OPERATIONS[n], published);
      if (problems.length > 0) assert.fail(problems[0]);
    });
  }

  it('every published operation has a row', () => {
    const rows = new Set<string>(names.map((n) => OPERATIONS[n].path));
    const missing = Object.keys(published.operations).filter((p) => !rows.has(p));
    if (missing.length > 0) assert.fail(`${missing[0]}: described in docs/api-schema.json but has no row: add it to src/core/api/operations.ts`);
  });

  it('docs/api-schema.json says what ../shared/api-schema.json says for each operation it has', function () {
    if (!existsSync(SHARED)) this.skip();
    const shared = JSON.parse(readFileSync(SHARED, 'utf8')) as typeof published;
    for (const [path, op] of Object.entries(published.operations)) {
      if (JSON.stringify(op) !== JSON.stringify(shared.operations[path])) assert.fail(`${path} differs from ../shared/api-schema.json: copy ${path} from there`);
    }
    for (const [t, def] of Object.entries(published.types)) {
      if (t in shared.types && JSON.stringify(def) !== JSON.stringify(shared.types[t])) assert.fail(`type ${t} differs from ../shared/api-schema.json: copy it from there`);
    }
  });
});
