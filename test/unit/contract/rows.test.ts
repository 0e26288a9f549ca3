// Each row of the operation table against its published description (docs/api-schema.json): one
// test per row, failing with one line that names the operation, what differs and the fix, instead
// of the emulator's out-of-contract answers surfacing as 500s in other suites.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { OPERATIONS, type OperationName } from '../../../src/core/api/operations';
import { published } from './published';
import { rowProblems } from './rowProblems';

const names = Object.keys(OPERATIONS) as OperationName[];
/** The shared copy the docs follow (present on the team's machines, not in a clone). */
const SHARED = resolve(__dirname, '../../../../../shared/api-schema.json');
const DOCS = resolve(__dirname, '../../../../docs/api-schema.json');

describe('contract: every row of the operation table is its published description', () => {
  for (const n of names) {
    it(`${n} (${OPERATIONS[n].path})`, () => {
      const problems = rowProblems(n, OPERATIONS[n], published);
      if (problems.length > 0) assert.fail(problems[0]);
    });
  }

  it('docs/api-schema.json is ../shared/api-schema.json (it may describe operations that have no row yet)', function () {
    if (!existsSync(SHARED)) this.skip();
    if (!readFileSync(SHARED).equals(readFileSync(DOCS))) assert.fail('docs/api-schema.json differs from ../shared/api-schema.json: run node scripts/check-api-schema.mjs --write');
  });
});
