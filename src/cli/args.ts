// The command line's surface: parsing and usage text. Bad usage is a UsageError (exit 2).
import { validateTitleId } from '../core/ids';
import { ID_KINDS, type IdKind } from '../core/deletion/types';
import { STORE_KINDS, type StoreKind } from '../core/store/types';
import { CONFIRM_RE } from '../core/deletion/plan';

export const USAGE = `usage:
  platform-explorer delete-players --title ID --endpoint TEMPLATE --kind platform-id|consolelive|storefront
      [--sandbox S] --input FILE --journal FILE [--metadata TEXT] (--dry-run | --confirm N:DIGEST)
      [--receipts FILE] [--json]
  platform-explorer delete-players --title ID --endpoint TEMPLATE --kind KIND --journal FILE --resume
      (--dry-run | --confirm N:DIGEST) [--no-anchor] [--receipts FILE] [--json]
  platform-explorer verify-deletions --title ID --endpoint TEMPLATE --journal FILE [--no-anchor] [--json]
  platform-explorer delete-players|verify-deletions ... --store postgres --batch ID (instead of --journal FILE)
  platform-explorer --version

The title's secret key is read from the environment variable PLATFORM_SECRET_KEY only.
--endpoint is the service address template, e.g. https://{titleId}.your-service-domain.
--input holds one identifier per line (a .csv file: the first column).
--dry-run prints the plan and sends nothing; it ends with the line "To send: --confirm N:DIGEST".
--confirm N:DIGEST sends the deletions of that plan only: N players, DIGEST a digest of them,
the title and the kind; a value made for another plan sends nothing.
--journal FILE is created new (never an existing file) and records each send before and after it;
every line is authenticated with a key derived from the title's secret key.
--resume continues the batch in an existing --journal (its plan; --input is not read): it says
the batch's ticket, counts and start, then sends the players not sent. A player sent without a
recorded answer is sent again, and the service's refusal of a second deletion while one is
queued is recorded as queued. Use the same --confirm value as the batch's dry run.
A journal with no anchor in this user's state folder ($XDG_STATE_HOME/platform-explorer/anchors:
another HOME or XDG_STATE_HOME, sudo, a restored copy, another machine) cannot be checked for being
an older copy, and is resumed or verified only with --no-anchor (you say it is the newest copy).
--receipts FILE writes the receipts (.csv, else JSON); it is output only, never read back.
Players already queued by earlier batches are found in the other journals of --journal's folder.
Journal, receipts and their folders must be yours, not writable by group or others, and not
symbolic links. --json prints JSON lines.
--store postgres keeps the batch in the team store (docs/team-store.md) instead of a --journal
file: the connection string is read from PLATFORM_STORE_URL only; --batch ID names the batch
(letters, digits and dashes). Runs on several machines may work one batch at once: each send is
claimed in the database first, so no player is sent twice; a run on an existing batch joins it
when its --confirm matches the batch's plan.
Exit status: 0 all done, 1 something failed or is unknown, 2 bad usage.`;

export class UsageError extends Error {}

export interface DeleteArgs {
  command: 'delete-players';
  titleId: string;
  endpoint: string;
  kind: IdKind;
  sandbox?: string;
  /** Undefined when resuming. */
  input?: string;
  journal: string;
  metaData?: string;
  dryRun: boolean;
  /** The dry run's "N:DIGEST". */
  confirm?: string;
  resume: boolean;
  receipts?: string;
  json: boolean;
  /** Where the batch is kept: the --journal file, or the team store (--store postgres, --batch). */
  store: StoreKind;
  /** The team store's batch ID (--store postgres). */
  batch?: string;
  /** --no-anchor: a journal with no anchor here is resumed as the newest copy. */
  noAnchor: boolean;
}

export interface VerifyArgs {
  command: 'verify-deletions';
  titleId: string;
  endpoint: string;
  journal: string;
  json: boolean;
  store: StoreKind;
  batch?: string;
  noAnchor: boolean;
}

export type CliArgs = DeleteArgs | VerifyArgs | { command: 'help' };

const VALUE_FLAGS: Record<string, readonly string[]> = {
  'delete-players': ['--title', '--endpoint', '--kind', '--sandbox', '--input', '--journal', '--metadata', '--confirm', '--receipts', '--store', '--batch'],
  'verify-deletions': ['--title', '--endpoint', '--journal', '--store', '--batch'],
};
const BOOL_FLAGS: Record<string, readonly string[]> = {
  'delete-players': ['--dry-run', '--json', '--resume', '--no-anchor'],
  'verify-deletions': ['--json', '--no-anchor'],
};

// eslint-disable-next-line complexity -- one case per flag and command, in the order of --help; a table of closures would hide which flag checks what
export function parseArgs(argv: readonly string[]): CliArgs {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') return { command: 'help' };
  const command = argv[0];
  if (!(command in VALUE_FLAGS)) throw new UsageError(`Unknown command "${command}": use delete-players or verify-deletions (see --help).`);
  const values = new Map<string, string>();
  const bools = new Set<string>();
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (/^--(secret-?)?key\b/i.test(a)) {
      throw new UsageError(`${a} is not accepted: a key on the command line is visible to other users. Set PLATFORM_SECRET_KEY in the environment instead.`);
    }
    if (BOOL_FLAGS[command].includes(a)) {
      bools.add(a);
    } else if (VALUE_FLAGS[command].includes(a)) {
      const v = argv[i + 1];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${a} needs a value (see --help).`);
      if (values.has(a)) throw new UsageError(`${a} is given twice; give it once.`);
      values.set(a, v);
      i++;
    } else {
      throw new UsageError(`Unknown option "${a}" for ${command} (see --help).`);
    }
  }
  const need = (flag: string): string => {
    const v = values.get(flag);
    if (v === undefined || v.trim() === '') throw new UsageError(`${flag} is required for ${command} (see --help).`);
    return v;
  };
  const titleId = need('--title');
  const titleError = validateTitleId(titleId);
  if (titleError !== undefined) throw new UsageError(`--title: ${titleError}`);
  const store = values.get('--store') ?? 'file';
  if (!(STORE_KINDS as readonly string[]).includes(store)) {
    throw new UsageError(`--store must be one of ${STORE_KINDS.join(', ')}, not "${store}".`);
  }
  const batch = values.get('--batch');
  if (store === 'postgres') {
    if (values.has('--journal')) throw new UsageError('--journal is for --store file; with --store postgres the batch is named by --batch ID.');
    if (batch === undefined || !/^[A-Za-z0-9-]{1,64}$/.test(batch)) throw new UsageError('--store postgres needs --batch ID: 1-64 letters, digits and dashes (the same ID on every machine working the batch).');
  } else if (batch !== undefined) {
    throw new UsageError('--batch names a batch in the team store: add --store postgres, or use --journal FILE.');
  }
  const common = {
    titleId: titleId.toUpperCase(), endpoint: need('--endpoint'), journal: store === 'file' ? need('--journal') : '', json: bools.has('--json'),
    noAnchor: bools.has('--no-anchor'), store: store as StoreKind, ...(batch !== undefined ? { batch } : {}),
  };
  if (command === 'verify-deletions') return { command, ...common };

  const kind = need('--kind');
  if (!(ID_KINDS as readonly string[]).includes(kind)) throw new UsageError(`--kind must be one of ${ID_KINDS.join(', ')}, not "${kind}".`);
  const sandbox = values.get('--sandbox');
  if (sandbox !== undefined && kind !== 'consolelive') throw new UsageError('--sandbox applies to --kind consolelive only; remove it.');
  const dryRun = bools.has('--dry-run');
  if (dryRun === values.has('--confirm')) {
    throw new UsageError('Give exactly one of --dry-run (see the plan, send nothing) or --confirm N:DIGEST (send; the value is on the dry run\'s last line).');
  }
  const confirm = values.get('--confirm');
  // The value is not echoed: a refusal never shows one that would pass.
  if (confirm !== undefined && !CONFIRM_RE.test(confirm)) {
    throw new UsageError('--confirm takes the value on the dry run\'s last line, "To send: --confirm N:DIGEST"; run --dry-run and check the plan first.');
  }
  const resume = bools.has('--resume');
  const metaData = values.get('--metadata');
  if (metaData !== undefined && (metaData.length > 1000 || /[\u0000-\u001f\u007f-\u009f]/.test(metaData))) {
    throw new UsageError('--metadata must be at most 1000 characters without control characters.');
  }
  return {
    command: 'delete-players', ...common, kind: kind as IdKind, sandbox: kind === 'consolelive' ? (sandbox ?? 'RETAIL') : undefined,
    input: resume ? values.get('--input') : need('--input'), metaData, dryRun, confirm, resume, receipts: values.get('--receipts'),
  };
}
