// The command line's surface: parsing and usage text. Bad usage is a UsageError (exit 2).
import { validateTitleId } from '../core/ids';
import { ID_KINDS, type IdKind } from '../core/deletion/types';

export const USAGE = `usage:
  platform-explorer delete-players --title ID --endpoint TEMPLATE --kind platform-id|consolelive|storefront
      [--sandbox S] --input FILE --journal FILE [--metadata TEXT] (--dry-run | --confirm COUNT)
      [--receipts FILE] [--json]
  platform-explorer verify-deletions --title ID --endpoint TEMPLATE --journal FILE [--json]

The title's secret key is read from the environment variable PLATFORM_SECRET_KEY only.
--endpoint is the service address template, e.g. https://{titleId}.your-service-domain.
--input holds one identifier per line (a .csv file: the first column).
--dry-run prints the plan and sends nothing. --confirm COUNT sends the deletions when COUNT is
the number of players the plan deletes; rerunning the same command resumes from --journal
(its plan, not --input again): a player sent without a recorded answer is sent again, and the
service's refusal of a second deletion while one is queued is recorded as queued.
--receipts FILE writes the receipts (.csv, else JSON). --json prints JSON lines.
Exit status: 0 all done, 1 something failed or is unknown, 2 bad usage.`;

export class UsageError extends Error {}

export interface DeleteArgs {
  command: 'delete-players';
  titleId: string;
  endpoint: string;
  kind: IdKind;
  sandbox?: string;
  input: string;
  journal: string;
  metaData?: string;
  dryRun: boolean;
  confirm?: number;
  receipts?: string;
  json: boolean;
}

export interface VerifyArgs {
  command: 'verify-deletions';
  titleId: string;
  endpoint: string;
  journal: string;
  json: boolean;
}

export type CliArgs = DeleteArgs | VerifyArgs | { command: 'help' };

const VALUE_FLAGS: Record<string, readonly string[]> = {
  'delete-players': ['--title', '--endpoint', '--kind', '--sandbox', '--input', '--journal', '--metadata', '--confirm', '--receipts'],
  'verify-deletions': ['--title', '--endpoint', '--journal'],
};
const BOOL_FLAGS: Record<string, readonly string[]> = {
  'delete-players': ['--dry-run', '--json'],
  'verify-deletions': ['--json'],
};

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
  const common = { titleId: titleId.toUpperCase(), endpoint: need('--endpoint'), journal: need('--journal'), json: bools.has('--json') };
  if (command === 'verify-deletions') return { command, ...common };

  const kind = need('--kind');
  if (!(ID_KINDS as readonly string[]).includes(kind)) throw new UsageError(`--kind must be one of ${ID_KINDS.join(', ')}, not "${kind}".`);
  const sandbox = values.get('--sandbox');
  if (sandbox !== undefined && kind !== 'consolelive') throw new UsageError('--sandbox applies to --kind consolelive only; remove it.');
  const dryRun = bools.has('--dry-run');
  const confirmText = values.get('--confirm');
  if (dryRun === (confirmText !== undefined)) {
    throw new UsageError('Give exactly one of --dry-run (see the plan, send nothing) or --confirm COUNT (send; COUNT is the number of players the plan deletes).');
  }
  let confirm: number | undefined;
  if (confirmText !== undefined) {
    if (!/^\d{1,9}$/.test(confirmText)) throw new UsageError(`--confirm must be the number of players to delete (a whole number), not "${confirmText}".`);
    confirm = Number(confirmText);
  }
  return {
    command: 'delete-players', ...common, kind: kind as IdKind, sandbox: kind === 'consolelive' ? (sandbox ?? 'RETAIL') : undefined,
    input: need('--input'), metaData: values.get('--metadata'), dryRun, confirm, receipts: values.get('--receipts'),
  };
}
