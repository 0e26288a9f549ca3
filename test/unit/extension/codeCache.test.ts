// The entry's code cache, attacked: a cache only from a private folder of ours (a planted
// symlink, a shared or group-writable folder is never read or written), a planted or corrupt
// cache file is rejected by V8 and the bundle still loads right, and a second start uses the
// cache the first one wrote.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheFolder, cachePlace, loadBundle } from '../../../src/extension/codeCache';

describe('extension/codeCache: the entry loads the main bundle through a private code cache', () => {
  let root: string;
  let bundle: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'pe-codecache-'));
    bundle = join(root, 'bundle.js');
    // Enough code for V8 to make a cache of; exports read back to prove the module ran once per load.
    writeFileSync(bundle, `// ${root}: a source V8 has not compiled in this process yet\nexports.sum = ${Array.from({ length: 200 }, (_, i) => `(${i} + 1)`).join(' + ')};\nexports.loads = (global.__peLoads = (global.__peLoads || 0) + 1);\n`);
  });
  afterEach(() => {
    delete require.cache[bundle];
    rmSync(root, { recursive: true, force: true });
  });

  const load = (): ReturnType<typeof loadBundle> => {
    delete require.cache[bundle];
    return loadBundle(bundle, root);
  };
  const expectedSum = Array.from({ length: 200 }, (_, i) => i + 1).reduce((a, b) => a + b, 0);

  it('the first load compiles and writes the cache (0600 in a 0700 folder); the second uses it; both give the module as require() would', () => {
    const first = load();
    assert.equal(first.cache, 'none');
    assert.equal(first.exports.sum, expectedSum);
    assert.equal(require.cache[bundle]?.exports, first.exports, 'the same require.cache entry as require()');
    first.saveCache();
    const folder = cacheFolder(root)!;
    const { prefix } = cachePlace(bundle, root);
    const files = readdirSync(folder).filter((f) => f.startsWith(prefix));
    assert.equal(files.length, 1, `one cache file: ${files.join(', ')}`);
    assert.equal(statSync(folder).mode & 0o777, 0o700);
    assert.equal(statSync(join(folder, files[0])).mode & 0o777, 0o600);
    const second = load();
    assert.equal(second.cache, 'used');
    assert.equal(second.exports.sum, expectedSum);
    assert.equal((second.exports.loads as number) - (first.exports.loads as number), 1, 'the module body ran again: a cache is code, not a copy of exports');
  });

  it('a planted or corrupt cache file is rejected and the bundle still loads right; the next save replaces it', () => {
    // Planted before the first load, under the name the loader reads (content and runtime), so V8
    // checks it (a source already compiled in this process would not be checked again).
    mkdirSync(join(root, `platform-explorer-code-cache${process.getuid?.() === undefined ? '' : `-${process.getuid!()}`}`), { mode: 0o700 });
    const folder = cacheFolder(root)!;
    const source = readFileSync(bundle, 'utf8');
    const key = createHash('sha256').update(`${process.version}\0${process.arch}\0`).update(source).digest('hex').slice(0, 32);
    const name = `${cachePlace(bundle, root).prefix}${key}.bin`;
    writeFileSync(join(folder, name), Buffer.from('not a V8 code cache '.repeat(50)));
    const planted = load();
    assert.equal(planted.cache, 'rejected');
    assert.equal(planted.exports.sum, expectedSum);
    planted.saveCache();
    assert.notEqual(readFileSync(join(folder, name)).subarray(0, 20).toString(), 'not a V8 code cache ', 'the planted file was replaced');
    assert.equal(load().cache, 'used');
  });

  it('a changed bundle never runs an old cache: a new name by content, the old one removed on save', () => {
    load().saveCache();
    writeFileSync(bundle, 'exports.sum = 42;\n');
    const changed = load();
    assert.equal(changed.cache, 'none');
    assert.equal(changed.exports.sum, 42);
    changed.saveCache();
    assert.equal(readdirSync(cacheFolder(root)!).filter((f) => f.startsWith(cachePlace(bundle, root).prefix)).length, 1);
  });

  it('a cache folder planted as a symlink, or open to group or others, is never read or written', () => {
    const uid = process.getuid?.();
    const name = `platform-explorer-code-cache${uid === undefined ? '' : `-${uid}`}`;
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, join(root, name));
    assert.equal(cacheFolder(root), undefined, 'a symlinked folder is refused');
    const viaLink = load();
    assert.equal(viaLink.exports.sum, expectedSum);
    assert.equal(viaLink.cache, 'none');
    viaLink.saveCache();
    assert.deepEqual(readdirSync(elsewhere), [], 'nothing written through the symlink');

    rmSync(join(root, name));
    mkdirSync(join(root, name), { mode: 0o700 });
    chmodSync(join(root, name), 0o777);
    assert.equal(cacheFolder(root), undefined, 'a folder others can write is refused');
    const open = load();
    assert.equal(open.exports.sum, expectedSum);
    open.saveCache();
    assert.deepEqual(readdirSync(join(root, name)), [], 'nothing written to a shared folder');
    assert.ok(existsSync(bundle));
  });
});
