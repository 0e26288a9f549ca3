// The operator: who ran a data request's steps, named in every evidence entry and signing the
// evidence. An Ed25519 key (node:crypto) made on first use and kept where the store folder cannot
// reach it: the command line's in `$XDG_CONFIG_HOME/platform-explorer/` (a folder and files of the
// user's own, 0700/0600, by the journal's own-file rules), the editor's in SecretStorage. The
// private key never leaves its key store; the evidence carries the public key and a signature,
// so an auditor needs only the pack and the public key (`operator show --public-key`).
// The same key stores hold each request's pseudonymisation key (request shred destroys it).
import { createHash, createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { lstat, mkdir, readFile, rm } from 'node:fs/promises';
import { homedir, userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { ownProblem } from './files/ownFile';
import { writeWhole } from './files/ownFiles';

/** Who caused an entry: the operator's key fingerprint and display name. */
export interface OperatorRef {
  fingerprint: string;
  name: string;
}

export interface Operator extends OperatorRef {
  /** The public key, PEM (SPKI): what `operator show --public-key` prints and a pack carries. */
  publicKeyPem: string;
  /** An Ed25519 signature of `bytes`, base64. */
  sign(bytes: Uint8Array): string;
  /** A MAC key for `label` derived from the private key (never written): authenticates evidence entries. */
  macKey(label: string): Buffer;
}

export class OperatorError extends Error {}

const OPERATOR_FILE_VERSION = 1;
const NAME_MAX = 100;
const NAME_BAD_RE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/;

/** Why `name` cannot be an operator's display name, or undefined. */
export function operatorNameProblem(name: string): string | undefined {
  if (name.trim().length === 0 || name.length > NAME_MAX) return `The operator name must be 1 to ${NAME_MAX} characters.`;
  if (NAME_BAD_RE.test(name)) return 'The operator name holds control or invisible characters; remove them.';
  return undefined;
}

/** The OS user name (the default display name). */
export function defaultOperatorName(): string {
  try {
    const n = userInfo().username;
    return operatorNameProblem(n) === undefined ? n : 'operator';
  } catch {
    return 'operator';
  }
}

/** The fingerprint of a public key: SHA256: and the base64url SHA-256 of its DER (SPKI). */
export function fingerprintOf(publicKey: string | KeyObject): string {
  const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
  return `SHA256:${createHash('sha256').update(key.export({ type: 'spki', format: 'der' })).digest('base64url')}`;
}

/** A public key read from PEM text, checked to be Ed25519; undefined when it is not one. */
export function readPublicKey(pem: string): { pem: string; fingerprint: string } | undefined {
  try {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType !== 'ed25519') return undefined;
    const out = key.export({ type: 'spki', format: 'pem' }).toString();
    return { pem: out, fingerprint: fingerprintOf(key) };
  } catch {
    return undefined;
  }
}

/** Whether `signature` (base64) is an Ed25519 signature of `bytes` by `publicKeyPem`. */
export function signatureValid(publicKeyPem: string, bytes: Uint8Array, signature: string): boolean {
  try {
    const key = createPublicKey(publicKeyPem);
    if (key.asymmetricKeyType !== 'ed25519' || !/^[A-Za-z0-9+/]{86}==$/.test(signature)) return false;
    return verify(null, bytes, key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** The operator of a private key (PKCS#8 PEM, Ed25519). */
export function operatorFromKey(privateKeyPem: string, name: string): Operator {
  const key = createPrivateKey(privateKeyPem);
  if (key.asymmetricKeyType !== 'ed25519') throw new OperatorError('The operator key is not an Ed25519 key.');
  const pub = createPublicKey(key);
  const publicKeyPem = pub.export({ type: 'spki', format: 'pem' }).toString();
  const seed = key.export({ type: 'pkcs8', format: 'der' });
  return {
    name, fingerprint: fingerprintOf(pub), publicKeyPem,
    sign: (bytes) => sign(null, bytes, key).toString('base64'),
    macKey: (label) => createHmac('sha256', seed).update(`platform-explorer operator MAC key\n${label}`).digest(),
  };
}

/** Where secrets of this tool are kept outside any store folder: named values, each created once. */
export interface KeyStore {
  /** Where, for messages. */
  readonly where: string;
  get(name: string): Promise<string | undefined>;
  /** Stores `value` under `name` unless one is there; returns the value stored (the earlier one if any). */
  create(name: string, value: string): Promise<string>;
  /** Replaces the value under `name`. */
  replace(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
}

const KEY_NAME_RE = /^[A-Za-z0-9-]{1,80}$/;

/** Secrets as files `<name>` (0600) in a folder of the user's own (0700), by the journal's own-file rules. */
export class FolderKeyStore implements KeyStore {
  constructor(readonly where: string) {}

  private async ready(): Promise<void> {
    // A link (even a dangling one) in the folder's place is refused, never followed or made through.
    if ((await lstat(this.where).catch(() => undefined)) === undefined) await mkdir(this.where, { recursive: true, mode: 0o700 });
    const p = ownProblem(await lstat(this.where), true);
    if (p !== undefined) throw new OperatorError(`The key folder ${this.where} ${p.problem}; nothing was read or written. ${p.chmod ? 'Run chmod go-w on it, or remove it' : 'Remove it'} so that it is made again as a folder only you can write.`);
    if (((await lstat(this.where)).mode & 0o077) !== 0) throw new OperatorError(`The key folder ${this.where} can be read by group or others; run chmod 700 on it.`);
  }

  private file(name: string): string {
    if (!KEY_NAME_RE.test(name)) throw new OperatorError(`"${name.slice(0, 80)}" is not a key name this tool writes.`);
    return join(this.where, name);
  }

  async get(name: string): Promise<string | undefined> {
    await this.ready();
    const path = this.file(name);
    const st = await lstat(path).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw new OperatorError(`Cannot read the key file ${path}: ${e.code ?? e.message}`);
    });
    if (st === undefined) return undefined;
    const p = ownProblem(st, false);
    if (p !== undefined) throw new OperatorError(`The key file ${path} ${p.problem}, so it cannot be trusted; nothing was done. Remove it only if you know it is not your key.`);
    if ((st.mode & 0o077) !== 0) throw new OperatorError(`The key file ${path} can be read by group or others (mode ${(st.mode & 0o777).toString(8)}); run chmod 600 on it.`);
    return readFile(path, 'utf8');
  }

  async create(name: string, value: string): Promise<string> {
    await this.ready();
    const path = this.file(name);
    // Linked into place: a key already there is kept, so two first uses racing keep one key.
    await writeWhole(path, value, 'create');
    const stored = await this.get(name);
    if (stored === undefined) throw new OperatorError(`The key file ${path} could not be written.`);
    return stored;
  }

  async replace(name: string, value: string): Promise<void> {
    await this.ready();
    await writeWhole(this.file(name), value);
  }

  async delete(name: string): Promise<void> {
    await this.ready();
    await rm(this.file(name), { force: true });
  }
}

/** The command line's key folder: `$XDG_CONFIG_HOME/platform-explorer` (default ~/.config/platform-explorer). */
export function cliKeyStore(env: NodeJS.ProcessEnv = process.env): FolderKeyStore {
  const config = env.XDG_CONFIG_HOME !== undefined && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return new FolderKeyStore(join(config, 'platform-explorer'));
}

const OPERATOR_KEY = 'operator-key';

interface OperatorFile {
  version: number;
  name: string;
  privateKey: string;
}

function parseOperatorFile(text: string, where: string): OperatorFile {
  let v: Partial<OperatorFile>;
  try {
    v = JSON.parse(text) as Partial<OperatorFile>;
  } catch {
    v = {};
  }
  if (v.version !== OPERATOR_FILE_VERSION || typeof v.name !== 'string' || typeof v.privateKey !== 'string') {
    throw new OperatorError(`The operator key in ${where} is damaged; restore it from your backup (evidence it signed names its fingerprint).`);
  }
  return v as OperatorFile;
}

/**
 * The operator of this key store, made on first use (an Ed25519 key, `name` or the OS user name);
 * with `rename`, its display name is set to `rename` (the key stays).
 */
export async function loadOperator(keys: KeyStore, o: { name?: string; rename?: string } = {}): Promise<Operator> {
  const wanted = o.rename ?? o.name;
  if (wanted !== undefined) {
    const bad = operatorNameProblem(wanted);
    if (bad !== undefined) throw new OperatorError(bad);
  }
  let text = await keys.get(OPERATOR_KEY);
  if (text === undefined) {
    const { privateKey } = generateKeyPairSync('ed25519');
    const made: OperatorFile = { version: OPERATOR_FILE_VERSION, name: wanted ?? defaultOperatorName(), privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
    text = await keys.create(OPERATOR_KEY, `${JSON.stringify(made)}\n`);
  }
  const file = parseOperatorFile(text, keys.where);
  if (o.rename !== undefined && o.rename !== file.name) {
    file.name = o.rename;
    await keys.replace(OPERATOR_KEY, `${JSON.stringify(file)}\n`);
  }
  try {
    return operatorFromKey(file.privateKey, file.name);
  } catch {
    throw new OperatorError(`The operator key in ${keys.where} is damaged; restore it from your backup.`);
  }
}

/** The key name of a request's pseudonymisation key. */
const requestKeyName = (requestId: string): string => `request-${requestId}`;

/** A request's pseudonymisation key (HMAC of its identifiers), made on first use unless `create` is false. */
export async function requestKey(keys: KeyStore, requestId: string, o: { create?: boolean } = {}): Promise<Buffer | undefined> {
  let text = await keys.get(requestKeyName(requestId));
  if (text === undefined && o.create !== false) text = await keys.create(requestKeyName(requestId), randomBytes(32).toString('hex'));
  if (text === undefined) return undefined;
  if (!/^[0-9a-f]{64}$/.test(text.trim())) throw new OperatorError(`The pseudonymisation key of request ${requestId} in ${keys.where} is damaged.`);
  return Buffer.from(text.trim(), 'hex');
}

/** Destroys a request's pseudonymisation key: its identifiers' hashes can no longer be linked to anyone. */
export async function shredRequestKey(keys: KeyStore, requestId: string): Promise<void> {
  await keys.delete(requestKeyName(requestId));
}
