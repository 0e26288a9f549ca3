// `store import --from DIR` and `store export --to DIR`: deletion journals into the team store and
// back out as an auditor's copy (core/store/transfer.ts). The connection string comes from
// PLATFORM_STORE_URL only; each title's key from PLATFORM_SECRET_KEY_<TITLEID>, else PLATFORM_SECRET_KEY.
import { lstat, mkdir, open, readdir, rename } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Journal, JournalError, sealJournal, type AnchorStore } from '../core/deletion';
import { canonical, checkUrl, importJournals, readBatches, storeWhere, type JournalToImport } from '../core/store';
import { ownFolderProblem } from '../core/files/ownFiles';
import { UsageError } from './args';
import { checkOwnFile, cliAnchors, journalTitle } from './files';
import { cliOperator } from './operator';
import { knownSecrets } from './output';

export const TRANSFER_USAGE = `  platform-explorer store import --from DIR [--no-anchor]
  platform-explorer store export --to DIR [--batch ID]...`;

/** The title's key: PLATFORM_SECRET_KEY_<TITLEID>, else PLATFORM_SECRET_KEY. */
export const envKey = (titleId: string): Promise<string | undefined> => {
  const k = process.env[`PLATFORM_SECRET_KEY_${titleId.toUpperCase()}`] ?? process.env.PLATFORM_SECRET_KEY;
  if (k !== undefined && k !== '') knownSecrets.push(k);
  return Promise.resolve(k === '' ? undefined : k);
};

/** The store's connection string (PLATFORM_STORE_URL), its password kept out of every message. */
export function storeUrl(): string {
  const url = checkUrl(process.env.PLATFORM_STORE_URL, 'PLATFORM_STORE_URL');
  const password = new URL(url).password;
  if (password !== '') knownSecrets.push(decodeURIComponent(password));
  return url;
}

const IMPORTED = '.imported';

/** Opens every deletion journal in `dir` with the journal's own checks (MAC chain, anchor); refuses the import at the first that fails, naming it. */
async function openJournals(dir: string, anchors: AnchorStore, noAnchor: boolean): Promise<{ open: Journal[]; skipped: string[] }> {
  const opened: Journal[] = [];
  const skipped: string[] = [];
  try {
    for (const name of (await readdir(dir)).sort()) {
      const path = join(dir, name);
      if (name.endsWith(IMPORTED) || name.endsWith('.lock') || name.endsWith('.tmp')) continue;
      const st = await lstat(path);
      if (!st.isSymbolicLink() && !st.isFile()) continue;
      if (st.isFile() && (await journalTitle(path)) === undefined) continue;
      await checkOwnFile(path, 'store import: the journal');
      const j = await Journal.open(path, { key: envKey, anchors, noAnchor }).catch((e: unknown) => {
        throw e instanceof JournalError ? new JournalError(`Not imported: ${e.message.replace(/ ?Nothing was sent\.?/, '')} Nothing was imported.`) : e;
      });
      opened.push(j);
      // A data request's export or events-only journal is not a deletion batch.
      if (j.batch.operation !== undefined) {
        skipped.push(`${name} (a data request's journal of ${j.batch.operation})`);
        opened.pop();
        await j.close();
      }
    }
    return { open: opened, skipped };
  } catch (e) {
    for (const j of opened) await j.close().catch(() => undefined);
    throw e;
  }
}

function flags(argv: readonly string[], allowed: string[], booleans: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (!allowed.includes(flag) && !booleans.includes(flag)) throw new UsageError(`Unknown option "${flag}" (see --help).`);
    if (booleans.includes(flag)) {
      out.set(flag, ['']);
      continue;
    }
    const value = argv[++i];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value (see --help).`);
    out.set(flag, [...(out.get(flag) ?? []), value]);
  }
  return out;
}

export async function storeImport(argv: readonly string[]): Promise<string> {
  const f = flags(argv, ['--from'], ['--no-anchor']);
  const dir = f.get('--from')?.[0];
  if (dir === undefined) throw new UsageError('store import needs --from DIR: the folder of deletion journals to move into the team store.');
  const bad = await ownFolderProblem(resolve(dir), '--from');
  if (bad !== undefined) throw new UsageError(bad);
  const url = storeUrl();
  const op = await cliOperator();
  const { open: journals, skipped } = await openJournals(resolve(dir), cliAnchors(), f.has('--no-anchor'));
  try {
    if (journals.length === 0) throw new UsageError(`--from ${dir} holds no deletion journal to import${skipped.length > 0 ? ` (skipped: ${skipped.join('; ')})` : ''}.`);
    const items: JournalToImport[] = journals.map((j) => ({ path: j.path, batch: j.batch, records: j.records.slice(1) }));
    const done = await importJournals({ url, operator: { fingerprint: op.fingerprint, name: op.name } }, items);
    // Moved: the file is kept for the record under a name no --resume finds by accident.
    const lines: string[] = [];
    for (const d of done) {
      const moved = await rename(d.path, `${d.path}${IMPORTED}`).then(() => `${d.path}${IMPORTED}`, (e: NodeJS.ErrnoException) => `${d.path} (could not be renamed: ${e.code ?? e.message}; do not resume it with --journal)`);
      lines.push(`  ${d.batchId}: ${d.records} records, from ${moved}`);
    }
    return [
      `Imported ${done.length} batch${done.length === 1 ? '' : 'es'} into the team store ${storeWhere(url)}, each journal checked before (its MAC chain and anchor) and read back after (the same records):`,
      ...lines,
      ...(skipped.length > 0 ? [`Not imported: ${skipped.join('; ')}.`] : []),
      'Continue them with --store postgres --batch ID; the journals are kept (renamed *.imported) as the record.',
    ].join('\n');
  } finally {
    for (const j of journals) await j.close().catch(() => undefined);
  }
}

/** A no-anchor store: an exported copy is checked by its MAC chain alone (it is not this machine's journal). */
const NO_ANCHORS: AnchorStore = {
  where: '(an exported copy: no anchors)',
  get: () => Promise.resolve(undefined),
  set: () => Promise.reject(new JournalError('An exported copy is not anchored.')),
  list: () => Promise.resolve([]),
  hold: () => Promise.reject(new JournalError('An exported copy is not held.')),
};

export async function storeExport(argv: readonly string[]): Promise<string> {
  const f = flags(argv, ['--to', '--batch'], []);
  const dir = f.get('--to')?.[0];
  if (dir === undefined) throw new UsageError('store export needs --to DIR: a folder of yours for the journals (created when missing).');
  const url = storeUrl();
  const batches = await readBatches({ url }, f.get('--batch'));
  const keys = new Map<string, string>();
  for (const { batch } of batches) {
    const k = await envKey(batch.titleId);
    if (k === undefined) throw new UsageError(`No key for title ${batch.titleId} (batch ${batch.batchId}): set PLATFORM_SECRET_KEY_${batch.titleId.toUpperCase()} or PLATFORM_SECRET_KEY; a journal is sealed with its title's key. Nothing was exported.`);
    keys.set(batch.titleId, k);
  }
  const to = resolve(dir);
  await mkdir(to, { recursive: true, mode: 0o700 });
  const bad = await ownFolderProblem(to, '--to');
  if (bad !== undefined) throw new UsageError(bad);
  const lines: string[] = [];
  for (const { batch, records } of batches) {
    const path = join(to, `${batch.batchId}.jsonl`);
    const fh = await open(path, 'wx', 0o600).catch((e: NodeJS.ErrnoException) => {
      throw new UsageError(e.code === 'EEXIST' ? `--to ${dir}: ${path} already exists; export into a new folder (nothing is overwritten).` : `Cannot write ${path}: ${e.code ?? e.message}`);
    });
    try {
      await fh.writeFile(sealJournal(batch, records, keys.get(batch.titleId)!).text, 'utf8');
      await fh.datasync();
    } finally {
      await fh.close();
    }
    // Checked as a journal: its MAC chain with the title's key, every record, and the same records as the store's.
    const back = await Journal.read(path, keys.get(batch.titleId)!, NO_ANCHORS);
    if (back === undefined || canonical(back.records) !== canonical([batch, ...records])) throw new JournalError(`The exported journal ${path} does not read back as batch ${batch.batchId} of the team store; do not use it.`);
    lines.push(`  ${batch.batchId}: ${records.length + 1} records, to ${path}`);
  }
  return [`Exported ${batches.length} batch${batches.length === 1 ? '' : 'es'} from the team store ${storeWhere(url)}, each read back as a journal (MAC chain with the title's key):`, ...lines].join('\n');
}
