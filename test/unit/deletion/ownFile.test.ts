// What makes a file or folder not one a deletion record may be kept in, and whether chmod fixes it:
// only "writable by group or others" does; a symlink, the wrong kind, another user's, never.
import * as assert from 'node:assert/strict';
import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownProblem } from '../../../src/core/files/ownFile';

describe('files/ownFile', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'pe-own-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names the problem of each, and says chmod fixes only the mode', () => {
    const file = join(dir, 'f');
    const folder = join(dir, 'd');
    writeFileSync(file, 'x', { mode: 0o600 });
    mkdirSync(folder, { mode: 0o700 });
    symlinkSync(file, join(dir, 'l'));
    assert.equal(ownProblem(lstatSync(file), false), undefined);
    assert.equal(ownProblem(lstatSync(folder), true), undefined);
    assert.deepEqual(ownProblem(lstatSync(join(dir, 'l')), false), { problem: 'is a symbolic link, which could lead to another user\'s file', chmod: false });
    assert.deepEqual(ownProblem(lstatSync(file), true), { problem: 'is not a folder', chmod: false });
    assert.deepEqual(ownProblem(lstatSync(folder), false), { problem: 'is not a regular file', chmod: false });
    chmodSync(file, 0o620);
    assert.deepEqual(ownProblem(lstatSync(file), false), { problem: 'is writable by group or others (mode 620)', chmod: true });
    chownSync(file, 4242, 4242);
    assert.deepEqual(ownProblem(lstatSync(file), false), { problem: 'belongs to another user (uid 4242), who could have planted or could change it', chmod: false });
  });
});
