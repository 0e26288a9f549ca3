// Files that decide what is sent or kept (journals, receipts, data-request folders) are used only
// when they are the user's own; the messages say what is wrong and what to run. Written files are
// written whole, never through a link planted where they go.
import * as assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownFileProblem, ownFolderProblem, writeWhole } from '../../../src/core/files/ownFiles';

describe('core/files/ownFiles: files of the user\'s own', function () {
  let dir: string;
  before(function () {
    if (process.platform === 'win32') this.skip();
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'own-files-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a folder of the user\'s own, and a missing file in it, are fine', async () => {
    assert.equal(await ownFolderProblem(dir, 'Receipts'), undefined);
    assert.equal(await ownFileProblem(join(dir, 'journal.json'), 'The journal'), undefined);
    writeFileSync(join(dir, 'journal.json'), '{}', { mode: 0o600 });
    assert.equal(await ownFileProblem(join(dir, 'journal.json'), 'The journal'), undefined);
  });

  it('a missing folder: how to create it, or the caller\'s own advice', async () => {
    const gone = join(dir, 'gone');
    assert.equal(await ownFolderProblem(gone, 'Receipts'), `Receipts: the folder ${gone} does not exist; create it (mkdir -m 700 ${gone}) or give another path.`);
    assert.equal(await ownFolderProblem(gone, 'Receipts', 'Run Export first.'), 'Run Export first.');
    // A file in a missing folder names the folder.
    assert.match(String(await ownFileProblem(join(gone, 'f.json'), 'The journal')), /^The journal: the folder .*gone does not exist/);
  });

  it('writable by others: chmod go-w fixes it, for a folder and for a file', async () => {
    chmodSync(dir, 0o777);
    assert.equal(await ownFolderProblem(dir, 'Receipts'), `Receipts: the folder ${dir} is writable by group or others (mode 777); run chmod go-w on it, or use a folder of your own that only you can write (mkdir -m 700 DIR).`);
    assert.match(String(await ownFileProblem(join(dir, 'f.json'), 'The journal')), /^The journal: the folder .* is writable by group or others/);
    chmodSync(dir, 0o700);
    writeFileSync(join(dir, 'f.json'), '{}');
    chmodSync(join(dir, 'f.json'), 0o620);
    assert.equal(await ownFileProblem(join(dir, 'f.json'), 'The journal'), 'The journal: the file is writable by group or others (mode 620); run chmod go-w on it, or use a file of your own (or a new path).');
  });

  it('a symbolic link or the wrong kind of entry: refused, with the way out', async () => {
    writeFileSync(join(dir, 'real.json'), '{}', { mode: 0o600 });
    symlinkSync(join(dir, 'real.json'), join(dir, 'link.json'));
    assert.equal(await ownFileProblem(join(dir, 'link.json'), 'The journal'), 'The journal: the file is a symbolic link, which could lead to another user\'s file; give the real path, use a file of your own (or a new path).');
    mkdirSync(join(dir, 'sub'), { mode: 0o700 });
    assert.equal(await ownFileProblem(join(dir, 'sub'), 'The journal'), 'The journal: the file is not a regular file; use a file of your own (or a new path).');
    assert.equal(await ownFolderProblem(join(dir, 'real.json'), 'Receipts'), `Receipts: the folder ${join(dir, 'real.json')} is not a folder; use a folder of your own that only you can write (mkdir -m 700 DIR).`);
  });

  it('a path through a file is not a folder; a file that cannot be looked at is named with the reason', async () => {
    writeFileSync(join(dir, 'f'), 'x', { mode: 0o600 });
    assert.equal(await ownFileProblem(join(dir, 'f', 'g.json'), 'The journal'), `The journal: the folder ${join(dir, 'f')} is not a folder; use a folder of your own that only you can write (mkdir -m 700 DIR).`);
    assert.equal(await ownFileProblem(join(dir, 'x'.repeat(300)), 'The journal'), 'The journal cannot be read (ENAMETOOLONG).');
  });

  it('another user\'s file or folder is refused, whatever its mode (needs root to set up)', async function () {
    if (process.getuid?.() !== 0) this.skip();
    writeFileSync(join(dir, 'f.json'), '{}', { mode: 0o600 });
    chownSync(join(dir, 'f.json'), 4321, 4321);
    assert.equal(await ownFileProblem(join(dir, 'f.json'), 'The journal'), 'The journal: the file belongs to another user (uid 4321), who could have planted or could change it; use a file of your own (or a new path).');
    chownSync(dir, 4321, 4321);
    assert.match(String(await ownFolderProblem(dir, 'Receipts')), /^Receipts: the folder .* belongs to another user \(uid 4321\)/);
  });

  it('writes a file whole, private to the user, replacing a link planted where it goes; no temp file is left', async () => {
    const target = join(dir, 'out.json');
    writeFileSync(join(dir, 'victim'), 'keep', { mode: 0o600 });
    symlinkSync(join(dir, 'victim'), target);
    await writeWhole(target, 'new text');
    assert.equal(readFileSync(target, 'utf8'), 'new text');
    assert.equal(readFileSync(join(dir, 'victim'), 'utf8'), 'keep');
    assert.equal(await ownFileProblem(target, 'The file'), undefined);
    assert.deepEqual(readdirSync(dir).sort(), ['out.json', 'victim']);
  });

  it('a write that fails leaves no temp file behind', async () => {
    mkdirSync(join(dir, 'taken'));
    writeFileSync(join(dir, 'taken', 'x'), '');
    // Renaming over a folder that is not empty fails after the temp file was written.
    await assert.rejects(writeWhole(join(dir, 'taken'), 'text'), /EISDIR|ENOTEMPTY|EEXIST/);
    assert.deepEqual(readdirSync(dir), ['taken']);
  });
});
