// The operator key (core/operator.ts): made once on first use (two first uses racing keep one key),
// renamed without a new key, kept by the journal's own-file rules (a folder or file others can
// write or read, or a symbolic link, refused), the requests' pseudonymisation keys made, read and
// destroyed, and signatures checked only with an Ed25519 key.
import * as assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cliKeyStore, defaultOperatorName, fingerprintOf, FolderKeyStore, loadOperator, operatorNameProblem, readPublicKey, requestKey, shredRequestKey, signatureValid,
} from '../../../src/core/operator';

describe('core: the operator key', () => {
  let dir: string;
  let keys: FolderKeyStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pe-operator-'));
    keys = new FolderKeyStore(join(dir, 'platform-explorer'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is made once on first use (0600 in a 0700 folder); two first uses racing get the same key; a rename keeps it', async () => {
    const [a, b] = await Promise.all([loadOperator(keys, { name: 'Ana' }), loadOperator(keys, { name: 'Ben' })]);
    assert.equal(a.fingerprint, b.fingerprint, 'one key, whichever first use won');
    assert.match(a.fingerprint, /^SHA256:[A-Za-z0-9_-]{43}$/);
    assert.equal(statSync(keys.where).mode & 0o777, 0o700);
    assert.equal(statSync(join(keys.where, 'operator-key')).mode & 0o777, 0o600);
    const renamed = await loadOperator(keys, { rename: 'Ana K' });
    assert.equal(renamed.name, 'Ana K');
    assert.equal(renamed.fingerprint, a.fingerprint);
    assert.equal((await loadOperator(keys)).name, 'Ana K', 'the name is kept');
    assert.equal((await loadOperator(keys, { name: 'ignored once made' })).name, 'Ana K', 'name only names a new key');
    const sig = a.sign(Buffer.from('head'));
    assert.equal(signatureValid(a.publicKeyPem, Buffer.from('head'), sig), true);
    assert.equal(signatureValid(a.publicKeyPem, Buffer.from('hea d'), sig), false);
    assert.equal(fingerprintOf(a.publicKeyPem), a.fingerprint);
    assert.deepEqual(a.macKey('x'), renamed.macKey('x'), 'the MAC key follows the private key, not the name');
    assert.notDeepEqual(a.macKey('x'), a.macKey('y'));
    assert.ok(!readFileSync(join(keys.where, 'operator-key'), 'utf8').includes(a.macKey('x').toString('hex')));
  });

  it('refuses a bad display name, a damaged key file, and folders or files others could change or read, naming the fix', async () => {
    assert.equal(operatorNameProblem(''), 'The operator name must be 1 to 100 characters.');
    assert.equal(operatorNameProblem('x'.repeat(101)), 'The operator name must be 1 to 100 characters.');
    assert.equal(operatorNameProblem('x'.repeat(100)), undefined);
    assert.match(operatorNameProblem('a\u202eb') ?? '', /control or invisible characters/);
    await assert.rejects(loadOperator(keys, { rename: ' ' }), /must be 1 to 100 characters/);
    assert.equal(operatorNameProblem(defaultOperatorName()), undefined);

    mkdirSync(keys.where, { mode: 0o700 });
    writeFileSync(join(keys.where, 'operator-key'), '{"version":1}', { mode: 0o600 });
    await assert.rejects(loadOperator(keys), new RegExp(`The operator key in ${keys.where} is damaged; restore it from your backup`));
    writeFileSync(join(keys.where, 'operator-key'), '{"version":1,"name":"x","privateKey":"junk"}', { mode: 0o600 });
    await assert.rejects(loadOperator(keys), /is damaged; restore it from your backup\.$/);
    rmSync(join(keys.where, 'operator-key'));

    chmodSync(keys.where, 0o777);
    await assert.rejects(keys.get('operator-key'), new RegExp(`The key folder ${keys.where} is writable by group or others \\(mode 777\\); nothing was read or written\\. Run chmod go-w on it`));
    chmodSync(keys.where, 0o755);
    await assert.rejects(keys.get('operator-key'), /can be read by group or others; run chmod 700 on it/);
    chmodSync(keys.where, 0o700);
    writeFileSync(join(keys.where, 'request-x'), 'k', { mode: 0o640 });
    await assert.rejects(keys.get('request-x'), /The key file .*request-x can be read by group or others \(mode 640\); run chmod 600 on it/);
    rmSync(join(keys.where, 'request-x'));
    writeFileSync(join(dir, 'planted'), 'k', { mode: 0o600 });
    symlinkSync(join(dir, 'planted'), join(keys.where, 'request-x'));
    await assert.rejects(keys.get('request-x'), /is a symbolic link, .* so it cannot be trusted; nothing was done/);
    await assert.rejects(keys.get('../x'), /is not a key name this tool writes/);
    rmSync(keys.where, { recursive: true });
    symlinkSync(join(dir, 'elsewhere'), keys.where);
    await assert.rejects(loadOperator(keys), new RegExp(`The key folder ${keys.where} is a symbolic link, which could lead to another user's file; nothing was read or written\\. Remove it`));
  });

  it('a request\'s pseudonymisation key: made on first use, the same after, none without create, gone after shred', async () => {
    assert.equal(await requestKey(keys, 'dr-20260105-abcdef', { create: false }), undefined);
    const k = await requestKey(keys, 'dr-20260105-abcdef');
    assert.equal(k?.length, 32);
    assert.deepEqual(await requestKey(keys, 'dr-20260105-abcdef', { create: false }), k);
    assert.notDeepEqual(await requestKey(keys, 'dr-20260105-000000'), k, 'each request its own key');
    await shredRequestKey(keys, 'dr-20260105-abcdef');
    assert.equal(await requestKey(keys, 'dr-20260105-abcdef', { create: false }), undefined);
    writeFileSync(join(keys.where, 'request-dr-20260105-111111'), 'not hex', { mode: 0o600 });
    await assert.rejects(requestKey(keys, 'dr-20260105-111111'), /pseudonymisation key of request dr-20260105-111111 in .* is damaged/);
  });

  it('reads only Ed25519 public keys and checks only well-formed signatures; the CLI\'s folder is under $XDG_CONFIG_HOME', () => {
    assert.equal(readPublicKey('junk'), undefined);
    const x = generateKeyPairSync('x25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    assert.equal(readPublicKey(x), undefined, 'not an Ed25519 key');
    assert.equal(signatureValid(x, Buffer.from('a'), `${'A'.repeat(86)}==`), false);
    const ed = generateKeyPairSync('ed25519');
    const pem = ed.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    assert.deepEqual(readPublicKey(`\n${pem}`), { pem, fingerprint: fingerprintOf(ed.publicKey) });
    assert.equal(signatureValid(pem, Buffer.from('a'), 'short=='), false);
    assert.equal(signatureValid('junk', Buffer.from('a'), `${'A'.repeat(86)}==`), false);
    assert.equal(cliKeyStore({ XDG_CONFIG_HOME: '/cfg' }).where, '/cfg/platform-explorer');
    assert.match(cliKeyStore({ XDG_CONFIG_HOME: 'relative' }).where, /\/\.config\/platform-explorer$/, 'a relative XDG_CONFIG_HOME is ignored');
  });
});
