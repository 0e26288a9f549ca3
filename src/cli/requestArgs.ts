// The `request` commands' surface (issue 18, "Terminal"): parsing and usage text. Bad usage is a UsageError (exit 2).
import { CONFIRM_RE } from '../core/deletion/plan';
import { validateTitleId } from '../core/ids';
import { parseAsks, RequestError, type Ask } from '../core/requests';
import { UsageError } from './args';
import { URL_REFUSED } from './exportLink';

export const REQUEST_USAGE = `data-subject requests (one folder per request under --store DIR):
  platform-explorer request new --store DIR --reference REF --asks access,erasure[,events]
      --identifiers FILE --titles ID[,ID...] --endpoint TEMPLATE [--sandbox S]
      [--received YYYY-MM-DD] [--due-days N] [--hold-days N] [--non-unique-display-names ID[,ID...]] [--json]
  platform-explorer request run --store DIR --id ID (--dry-run | --confirm N:DIGEST [--resend-unknown]) [--no-anchor] [--json]
  platform-explorer request withdraw --store DIR --id ID --reason TEXT [--no-anchor] [--json]
  platform-explorer request record-export --store DIR --id ID --receipt JOBRECEIPTID [--url-file FILE] [--no-anchor] [--json]
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
--hold-days N (default 0): erasures stay planned until N days after the request is made, so a
mistaken or fraudulent request can be withdrawn first; the dry run says until when.
--non-unique-display-names ID[,ID...]: titles (of --titles) that allow non-unique display names;
the service always answers AccountNotFound to a display-name lookup there, so none is sent and the
dry run says why.
new prints the request's id ({"id": ...} with --json).
run --dry-run resolves the identifiers in every title (once; paced), and shows the master accounts
found (one per PlatformId, whichever titles found it), what each will get, and what found nothing;
it sends no action; its last line is "To send: --confirm N:DIGEST" (N the accounts, DIGEST a digest
of the request, its accounts and actions: a value made for another request, or before the request
changed, is refused and never echoed). run --confirm N:DIGEST sends one export, one
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
withdraw records that the request was called off (with --reason): nothing more is sent for it, what
was sent stays recorded, and close writes the evidence with the withdrawal in it.
Each request's state file is sealed with one of its titles' keys and anchored outside the store
(in the journals' anchor folder); one changed by anything but this tool is refused before anything
is sent. A state file or journal with no anchor here (another HOME or XDG_STATE_HOME, a restored
copy, another machine) is refused unless --no-anchor says it is the newest copy.
--store postgres (every subcommand): the requests live in the team store, its connection string in
PLATFORM_STORE_URL (never an argument; a folder named postgres is ./postgres). Each send is claimed
in the database first, so two operators never both send it; show lists who holds each request now
and who did each step. PLATFORM_STORE_LEASE_SECONDS (default 900) is how long a claim is held.
Exit status: 0 done, 1 failed or not yet complete, 2 bad usage (a wrong --confirm included).`;

interface Common {
  store: string;
  json: boolean;
  /** --no-anchor: a state file or journal with no anchor here is accepted as the newest copy. */
  noAnchor: boolean;
}
export type RequestArgs =
  | Common & { sub: 'new'; reference: string; asks: Ask[]; identifiers: string; titles: string[]; endpoint: string; sandbox?: string; received?: string; dueDays?: number; holdDays?: number; displayNamesNotUnique?: string[] }
  | Common & { sub: 'run'; id: string; dryRun: boolean; confirm?: string; resendUnknown: boolean }
  | Common & { sub: 'withdraw'; id: string; reason: string }
  | Common & { sub: 'record-export'; id: string; receipt: string; urlFile?: string }
  | Common & { sub: 'verify' | 'shred'; id: string }
  | Common & { sub: 'verify-evidence'; id?: string; evidence?: string; signer?: string }
  | Common & { sub: 'close'; id: string; hashIdentifiers: boolean }
  | Common & { sub: 'show'; id?: string };

const VALUES: Record<RequestArgs['sub'], readonly string[]> = {
  new: ['--store', '--reference', '--asks', '--identifiers', '--titles', '--endpoint', '--sandbox', '--received', '--due-days', '--hold-days', '--non-unique-display-names'],
  run: ['--store', '--id', '--confirm'],
  withdraw: ['--store', '--id', '--reason'],
  'record-export': ['--store', '--id', '--receipt', '--url-file'],
  verify: ['--store', '--id'],
  close: ['--store', '--id'],
  'verify-evidence': ['--store', '--id', '--evidence', '--signer'],
  shred: ['--store', '--id'],
  show: ['--store', '--id'],
};
const BOOLS: Record<RequestArgs['sub'], readonly string[]> = {
  new: ['--json'], run: ['--json', '--dry-run', '--resend-unknown', '--no-anchor'], withdraw: ['--json', '--no-anchor'], 'record-export': ['--json', '--no-anchor'], verify: ['--json', '--no-anchor'],
  close: ['--json', '--hash-identifiers', '--no-anchor'], 'verify-evidence': ['--json'], shred: ['--json', '--no-anchor'], show: ['--json'],
};

/** `request new`'s values, each checked and named on error. */
function parseNew(values: ReadonlyMap<string, string>, need: (flag: string) => string, common: { store: string; json: boolean; noAnchor: boolean }): RequestArgs {
  const sub = 'new';
  const titleList = (option: string, text: string): string[] => {
    const list = text.split(',').map((t) => t.trim()).filter((t) => t.length > 0);
    for (const t of list) {
      const bad = validateTitleId(t);
      if (bad !== undefined) throw new UsageError(`${option}: ${bad}`);
    }
    return list.map((t) => t.toUpperCase());
  };
  const titles = titleList('--titles', need('--titles'));
  const notUniqueText = values.get('--non-unique-display-names');
  const displayNamesNotUnique = notUniqueText === undefined ? undefined : titleList('--non-unique-display-names', notUniqueText);
  const stray = displayNamesNotUnique?.filter((t) => !titles.includes(t)) ?? [];
  if (stray.length > 0) throw new UsageError(`--non-unique-display-names: ${stray.join(', ')} is not one of --titles (${titles.join(', ')}); name titles of the request only.`);
  let asks: Ask[];
  try {
    asks = parseAsks(need('--asks'));
  } catch (e) {
    throw new UsageError(`--asks: ${(e as RequestError).message}`);
  }
  const days = values.get('--due-days');
  if (days !== undefined && !/^\d{1,3}$/.test(days)) throw new UsageError('--due-days takes a whole number of days from 1 to 366 (default 30).');
  const hold = values.get('--hold-days');
  if (hold !== undefined && !/^\d{1,2}$/.test(hold)) throw new UsageError('--hold-days takes a whole number of days from 0 to 90 (default 0: erasures are not held).');
  return {
    sub, ...common, reference: need('--reference'), asks, identifiers: need('--identifiers'), titles,
    endpoint: need('--endpoint'), sandbox: values.get('--sandbox'), received: values.get('--received'), dueDays: days === undefined ? undefined : Number(days),
    holdDays: hold === undefined ? undefined : Number(hold), displayNamesNotUnique,
  };
}

// eslint-disable-next-line complexity -- one case per flag of the request sub-commands, in the order of --help
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
    return { sub, store: '', json: bools.has('--json'), noAnchor: false, evidence: values.get('--evidence'), signer: values.get('--signer') };
  }
  const common = { store: need('--store'), json: bools.has('--json'), noAnchor: bools.has('--no-anchor') };
  switch (sub) {
    case 'new': return parseNew(values, need, common);
    case 'run': {
      const dryRun = bools.has('--dry-run');
      const confirm = values.get('--confirm');
      if (dryRun === (confirm !== undefined)) throw new UsageError('Give exactly one of --dry-run (see the accounts, send nothing) or --confirm N:DIGEST (the value on the dry run\'s last line).');
      if (confirm !== undefined && !CONFIRM_RE.test(confirm)) throw new UsageError('--confirm takes the value on the dry run\'s last line, "To send: --confirm N:DIGEST"; run --dry-run and check the accounts first.');
      if (dryRun && bools.has('--resend-unknown')) throw new UsageError('--resend-unknown goes with --confirm N:DIGEST (it sends); the dry run sends nothing.');
      return { sub, ...common, id: need('--id'), dryRun, confirm, resendUnknown: bools.has('--resend-unknown') };
    }
    case 'withdraw': {
      const reason = need('--reason');
      if (reason.length > 500 || /[\u0000-\u001f\u007f-\u009f]/.test(reason)) throw new UsageError('--reason takes 1 to 500 characters without control characters.');
      return { sub, ...common, id: need('--id'), reason };
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
