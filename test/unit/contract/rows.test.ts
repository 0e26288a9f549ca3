// Each row of the operation table against its published description (docs/api-schema.json): one
// test per row, failing with one line that names the operation, what differs and the fix, instead
// of the emulator's out-of-contract answers surfacing as 500s in other suites.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { OPERATIONS, type OperationName } from '../../../src/core/api/operations';
import { NO_SUCH_PLAYER } from '../../../src/core/api/errorTexts';
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

  it('a row without the text of an error its description documents fails with one line naming the operation and what to add', () => {
    const { EmailAddressNotAvailable: _dropped, ...rest } = OPERATIONS.ExportMasterPlayerData.errors;
    const problems = rowProblems('ExportMasterPlayerData', { ...OPERATIONS.ExportMasterPlayerData, errors: rest }, published);
    assert.deepEqual(problems, [
      'ExportMasterPlayerData: docs/api-schema.json documents the error EmailAddressNotAvailable for Admin/ExportMasterPlayerData, and the row has no text for it: add EmailAddressNotAvailable: { title, hint } to the row\'s errors in src/core/api/operations.ts (general(\'EmailAddressNotAvailable\') where the general text fits)',
    ]);
    const typo = rowProblems('GetPlayedTitleList', { ...OPERATIONS.GetPlayedTitleList, errors: { ...OPERATIONS.GetPlayedTitleList.errors, AcountNotFound: NO_SUCH_PLAYER } }, published);
    assert.equal(typo.length, 1);
    assert.match(typo[0], /^GetPlayedTitleList: the row's errors name AcountNotFound, which neither ErrorCodes/);
  });

  it('docs/api-schema.json is ../shared/api-schema.json (it may describe operations that have no row yet)', function () {
    if (!existsSync(SHARED)) this.skip();
    if (!readFileSync(SHARED).equals(readFileSync(DOCS))) assert.fail('docs/api-schema.json differs from ../shared/api-schema.json: run node scripts/check-api-schema.mjs --write');
  });
});
