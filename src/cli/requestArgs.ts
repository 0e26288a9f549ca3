// The `request` commands' surface (issue 18, "Terminal"): parsing and usage text. Bad usage is a UsageError (exit 2).
import { validateTitleId } from '../core/ids';
import { parseAsks, RequestError, type Ask } from '../core/requests';
import { UsageError } from './args';
import { URL_REFUSED } from './exportLink';

export const REQUEST_USAGE = `data-subject requests (one folder per request under --store DIR):
  platform-explorer request new --store DIR --reference REF --asks access,erasure[,events]
      --identifiers FILE --titles ID[,ID...] --endpoint TEMPLATE [--sandbox S]
      [--received YYYY-MM-DD] [--due-days N] [--json]
  platform-explorer request run --store DIR --id ID (--dry-run | --confirm N [--resend-unknown]) [--json]
  platform-explorer request record-export --store DIR --id ID --receipt JOBRECEIPTID [--url-file FILE] [--json]
  platform-explorer request verify --store DIR --id ID [--json]
  platform-explorer request close --store DIR --id ID [--hash-identifiers] [--json]
  platform-explorer request shred --store DIR --id ID [--json]
  platform-explorer request verify-evidence (--store DIR --id ID | --evidence FILE) [--signer FILE] [--json]
  platform-explorer request show --store DIR [--id ID] [--json]

Keys: each title's secret key from PLATFORM_SECRET_KEY_<TITLEID> (e.g. PLATFORM_SECRET_KEY_F71AC),
or PLATFORM_SECRET_KEY when the request has one title; never from an argument. A title without a
key is not asked (the dry run says so).
--identifiers FILE: one identifier a line as kind:value, kind one of platformid, email, username,
displayname, storefront, consolelive (ConsoleLive IDs are looked up in --sandbox, default RETAIL);
# starts a comment. --due-days N: the due date is --received (default today) + N days (default 30).
new prints the request's id ({"id": ...} with --json).
run --dry-run resolves the identifiers in every title (once; paced), and shows the master accounts
found (one per PlatformId, whichever titles found it), what each will get, and what found nothing;
it sends no action. run --confirm N, N the number of accounts of the dry run, sends one export, one
erasure and one events-only erasure per account as asked (never one per title, never twice; each
recorded in the request's journal before and after it is sent, so a killed run is continued by the
same command). An account's erasure waits until its export has completed: run again after verify.
A send whose answer was not recorded (the run was killed or the connection lost) is not sent again:
verify settles erasures; --resend-unknown sends the others again, knowing they may have been taken
(an export made twice, events deleted twice).
verify checks queued erasures (GetPlayedTitleList answers AccountNotFound once done) and, where the
service's events can be read (the local emulator), exports (their player_data_exported event).
record-export records an export's download link from the e-mail (it completes the export). The link
leads to the person's data, so it is never an argument: paste it when asked (not shown), pipe it in
on standard input, or give --url-file FILE (a file of your own, readable by you alone).
close writes evidence.json and evidence.md (each call with its time, outcome and receipt, each
verification, chained by SHA-256); it refuses while an action is incomplete. --hash-identifiers
(on close, or again later on a closed request) is the retention step: personal identifiers in the
evidence and the state file (those found gone and any typed in the reference too) are replaced by
their HMAC under the request's own key, kept in $XDG_CONFIG_HOME/platform-explorer (pseudonymised);
download links and journals removed; the chain still verifies. shred does retention if not done and
destroys that key: the hashes can then not be linked to anyone (anonymised).
Every evidence entry names the operator who caused it; the close signs the chain head with the
operator key (platform-explorer operator show) and anchors it outside the store. verify-evidence
exits 0 only when the chain, the signature, the anchors, the MACs and evidence.md all match; with
--signer FILE (what operator show --public-key printed) also that this operator signed it. An
auditor checks a pack alone: --evidence evidence.json --signer FILE (--signer required then).
Exit status: 0 done, 1 failed or not yet complete, 2 bad usage (a wrong --confirm included).`;

interface Common {
  store: string;
  json: boolean;
}
export type RequestArgs =
  | Common & { sub: 'new'; reference: string; asks: Ask[]; identifiers: string; titles: string[]; endpoint: string; sandbox?: string; received?: string; dueDays?: number }
  | Common & { sub: 'run'; id: string; dryRun: boolean; confirm?: number; resendUnknown: boolean }
  | Common & { sub: 'record-export'; id: string; receipt: string; urlFile?: string }
  | Common & { sub: 'verify' | 'shred'; id: string }
  | Common & { sub: 'verify-evidence'; id?: string; evidence?: string; signer?: string }
  | Common & { sub: 'close'; id: string; hashIdentifiers: boolean }
  | Common & { sub: 'show'; id?: string };

const VALUES: Record<RequestArgs['sub'], readonly string[]> = {
  new: ['--store', '--reference', '--asks', '--identifiers', '--titles', '--endpoint', '--sandbox', '--received', '--due-days'],
  run: ['--store', '--id', '--confirm'],
  'record-export': ['--store', '--id', '--receipt', '--url-file'],
  verify: ['--store', '--id'],
  close: ['--store', '--id'],
  'verify-evidence': ['--store', '--id', '--evidence', '--signer'],
  shred: ['--store', '--id'],
  show: ['--store', '--id'],
};
const BOOLS: Record<RequestArgs['sub'], readonly string[]> = {
  new: ['--json'], run: ['--json', '--dry-run', '--resend-unknown'], 'record-export': ['--json'], verify: ['--json'], close: ['--json', '--hash-identifiers'], 'verify-evidence': ['--json'], shred: ['--json'], show: ['--json'],
};

export function parseRequestArgs(argv: readonly string[]): RequestArgs {
  const sub = argv[0] as RequestArgs['sub'];
  if (!(sub in VALUES)) throw new UsageError(`Unknown request command "${argv[0] ?? ''}": use ${Object.keys(VALUES).join(', ')} (see --help).`);
  const values = new Map<string, string>();
  const bools = new Set<string>();
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (/^--(secret-?)?key\b/i.test(a)) {
      throw new UsageError(`${a} is not accepted: a key on the command line is visible to other users. Set PLATFORM_SECRET_KEY_<TITLEID> in the environment instead.`);
    }
    if (/^--url(=|$)/i.test(a)) throw new UsageError(URL_REFUSED);
    if (BOOLS[sub].includes(a)) bools.add(a);
    else if (VALUES[sub].includes(a)) {
      const v = argv[i + 1];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${a} needs a value (see --help).`);
      if (values.has(a)) throw new UsageError(`${a} is given twice; give it once.`);
      values.set(a, v);
      i++;
    } else throw new UsageError(`Unknown option "${a}" for request ${sub} (see --help).`);
  }
  const need = (flag: string): string => {
    const v = values.get(flag);
    if (v === undefined || v.trim() === '') throw new UsageError(`${flag} is required for request ${sub} (see --help).`);
    return v;
  };
  if (sub === 'verify-evidence' && values.has('--evidence')) {
    if (values.has('--store') || values.has('--id')) throw new UsageError('Give either --store DIR --id ID (a request of your store) or --evidence FILE (a pack alone), not both.');
    if (!values.has('--signer')) throw new UsageError('--evidence FILE needs --signer FILE: the public key of the operator expected to have signed it (platform-explorer operator show --public-key); without it anyone could have signed the pack.');
    return { sub, store: '', json: bools.has('--json'), evidence: values.get('--evidence'), signer: values.get('--signer') };
  }
  const common = { store: need('--store'), json: bools.has('--json') };
  switch (sub) {
    case 'new': {
      const titles = need('--titles').split(',').map((t) => t.trim()).filter((t) => t.length > 0);
      for (const t of titles) {
        const bad = validateTitleId(t);
        if (bad !== undefined) throw new UsageError(`--titles: ${bad}`);
      }
      let asks: Ask[];
      try {
        asks = parseAsks(need('--asks'));
      } catch (e) {
        throw new UsageError(`--asks: ${(e as RequestError).message}`);
      }
      const days = values.get('--due-days');
      if (days !== undefined && !/^\d{1,3}$/.test(days)) throw new UsageError('--due-days takes a whole number of days from 1 to 366 (default 30).');
      return {
        sub, ...common, reference: need('--reference'), asks, identifiers: need('--identifiers'), titles: titles.map((t) => t.toUpperCase()),
        endpoint: need('--endpoint'), sandbox: values.get('--sandbox'), received: values.get('--received'), dueDays: days === undefined ? undefined : Number(days),
      };
    }
    case 'run': {
      const dryRun = bools.has('--dry-run');
      const confirm = values.get('--confirm');
      if (dryRun === (confirm !== undefined)) throw new UsageError('Give exactly one of --dry-run (see the accounts, send nothing) or --confirm N (N: the number of accounts the dry run shows).');
      if (confirm !== undefined && !/^\d{1,9}$/.test(confirm)) throw new UsageError('--confirm takes the number of accounts the dry run shows; run --dry-run and check them first.');
      if (dryRun && bools.has('--resend-unknown')) throw new UsageError('--resend-unknown goes with --confirm N (it sends); the dry run sends nothing.');
      return { sub, ...common, id: need('--id'), dryRun, confirm: confirm === undefined ? undefined : Number(confirm), resendUnknown: bools.has('--resend-unknown') };
    }
    case 'record-export':
      return { sub, ...common, id: need('--id'), receipt: need('--receipt'), urlFile: values.get('--url-file') };
    case 'close':
      return { sub, ...common, id: need('--id'), hashIdentifiers: bools.has('--hash-identifiers') };
    case 'show':
      return { sub, ...common, id: values.get('--id') };
    case 'verify-evidence':
      return { sub, ...common, id: need('--id'), signer: values.get('--signer') };
    default:
      return { sub, ...common, id: need('--id') };
  }
}
