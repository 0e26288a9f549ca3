// `platform-explorer request ...`: data-subject requests from a terminal, over core/requests.
// Keys come from PLATFORM_SECRET_KEY_<TITLEID> (or PLATFORM_SECRET_KEY for a one-title request),
// never an argument; everything printed is made safe for the terminal (output.ts).
import { readFile } from 'node:fs/promises';
import { PlatformClient } from '../core/api/client';
import { buildBaseUrl } from '../core/api/endpoint';
import {
  closeRequest, ConfirmMismatch, createRequest, describe, dryRun, emulatorEventReader, hashIdentifiers, isOverdue, isSettled, nextStep, parseIdentifiers, recordExportLink, requestState, RequestError,
  RequestStore, runActions, type RequestStorage, shredRequest, verifyEvidence, verifyEvidenceFile, verifyRequest, withdrawRequest, type Action, type EvidenceCheck, type DataRequest, type DryRun, type RequestClient,
  type RequestServices,
} from '../core/requests';
import { ownValue, serviceText } from '../core/serviceText';
import { readableLocal } from '../core/time';
import { UsageError } from './args';
import { readExportLink } from './exportLink';
import { cliAnchors } from './files';
import { knownSecrets, terminal } from './output';
import { cliKeyStore, type Operator } from '../core/operator';
import { cliOperator, ownText } from './operator';
import { parseRequestArgs, type RequestArgs } from './requestArgs';
import { openTeamRequests } from './teamStore';
import { queueOf, queueText } from './requestQueue';
import { PgRequestStore } from '../core/store';

const out = (s: string): void => void process.stdout.write(terminal(s));
const err = (s: string): void => void process.stderr.write(terminal(s.endsWith('\n') ? s : `${s}\n`));
/** JSON of our own values (paths, IDs; service strings in them were made safe where they came in): controls escaped, known secrets masked. */
const outJson = (v: unknown): void => void process.stdout.write(`${JSON.stringify(ownValue(v, knownSecrets), null, 2)}\n`);

/** The title's key from the environment: PLATFORM_SECRET_KEY_<TITLEID>, or PLATFORM_SECRET_KEY for a one-title request. */
function envKey(titleId: string, titles: readonly string[]): string | undefined {
  const own = process.env[`PLATFORM_SECRET_KEY_${titleId.toUpperCase()}`];
  const key = own !== undefined && own.trim() !== '' ? own : titles.length === 1 ? process.env.PLATFORM_SECRET_KEY : undefined;
  if (key === undefined || key.trim() === '') return undefined;
  if (!knownSecrets.includes(key)) knownSecrets.push(key);
  return key;
}

/** A client per title with a key; `close()` closes them all. */
function services(r: DataRequest, signal: AbortSignal, operator: Operator, o: { maxRetries?: number; noAnchor?: boolean } = {}): RequestServices & { close: () => Promise<void> } {
  const clients = new Map<string, PlatformClient>();
  const client = (titleId: string): RequestClient | undefined => {
    const key = envKey(titleId, r.titles);
    if (key === undefined) return undefined;
    let c = clients.get(titleId);
    if (c === undefined) {
      try {
        c = new PlatformClient({ titleId, endpoint: r.endpoint, getSecretKey: () => Promise.resolve(key), maxRetries: o.maxRetries });
      } catch (e) {
        throw new UsageError(`The request's endpoint: ${(e as Error).message}`);
      }
      clients.set(titleId, c);
    }
    return c;
  };
  return {
    client, key: (titleId) => Promise.resolve(envKey(titleId, r.titles)), anchors: cliAnchors(), operator, keys: cliKeyStore(), events: emulatorEventReader(r.endpoint, r.titles[0]), signal,
    ...(o.noAnchor === true ? { noAnchor: true } : {}),
    close: async () => { await Promise.all([...clients.values()].map((c) => c.close())); },
  };
}

async function withServices<T>(store: RequestStorage, id: string, signal: AbortSignal, fn: (s: RequestServices) => Promise<T>, o: { maxRetries?: number } = {}): Promise<T> {
  const s = services(await store.load(id), signal, await cliOperator(), { ...o, noAnchor: store.auth?.noAnchor });
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

const who = (x: { kind: string; value: string }): string => `${x.kind}:${x.value}`;

function dryRunText(d: DryRun): string {
  const lines = [`Request ${d.id} (ticket ${d.reference}), due ${d.due}${d.overdue ? ' (OVERDUE)' : ''}: dry run, no action sent.`, ''];
  lines.push(`Master accounts: ${d.accounts.length}`);
  for (const a of d.accounts) {
    lines.push(`  ${a.platformId}  found by ${a.identifiers.map(who).join(', ')} in ${a.foundIn.join(', ')}; plays ${a.titleIds.join(', ') || '(no titles reported)'}${a.error !== undefined ? ` (${a.error})` : ''}`);
    for (const x of a.actions) lines.push(`    ${x.operation} with title ${x.titleId}: ${x.status === 'waiting' ? 'after the one before completes' : x.status}`);
  }
  if (d.notFound.length > 0) lines.push('', `Found nothing in any title asked: ${d.notFound.map(who).join(', ')}`);
  for (const w of d.notFoundWhy) lines.push(`  ${w.kind}: ${w.why}`);
  for (const u of d.unresolved) lines.push(`Not resolved in title ${u.titleId}: ${who(u.identifier)} (${u.error})`);
  for (const t of d.titlesSkipped) lines.push(`Title ${t.titleId} not asked: ${t.reason} (set PLATFORM_SECRET_KEY_${t.titleId})`);
  for (const s of d.lookupsSkipped) lines.push(`Not looked up in title ${s.titleId}: ${who(s.identifier)} (${s.reason})`);
  if (d.gone.length > 0) lines.push(`Already gone (AccountNotFound): ${d.gone.join(', ')}`);
  if (d.heldUntil !== undefined) lines.push('', `Erasures held until ${readableLocal(d.heldUntil)} (a hold of ${d.holdDays ?? 0} days): they stay planned until then; exports are sent now.`);
  lines.push('', `To send: --confirm ${d.confirm}`);
  return `${lines.join('\n')}\n`;
}

/** An action as shown: never its download link (a bearer link to the person's data). */
const shownAction = ({ downloadUrl, ...a }: Action): Omit<Action, 'downloadUrl'> & { linkRecorded?: boolean } => (downloadUrl !== undefined ? { ...a, linkRecorded: true } : a);

function actionsText(r: DataRequest): string {
  const rows = r.actions.map((a) => `  ${a.kind.padEnd(8)} ${a.platformId.padEnd(17)} ${a.titleId.padEnd(8)} ${a.status.padEnd(10)} ${a.jobReceiptId ?? ''}${a.completedBy !== undefined ? ` (${a.completedBy})` : ''}${a.error !== undefined ? ` ${a.error}` : ''}`);
  return `Request ${r.id}: ${requestState(r)}; next: ${nextStep(r)}\n${rows.join('\n')}${rows.length > 0 ? '\n' : ''}`;
}

function summary(r: DataRequest, now = new Date()): Record<string, unknown> {
  const done = r.actions.filter((a) => a.status === 'completed').length;
  return {
    id: r.id, reference: r.reference, state: requestState(r), received: r.received, due: r.due, overdue: isOverdue(r, now),
    accounts: new Set(r.actions.map((a) => a.platformId)).size, actions: r.actions.length, completed: done,
    accepted: r.actions.filter((a) => a.status === 'accepted').length, next: nextStep(r),
  };
}

async function newCommand(a: Extract<RequestArgs, { sub: 'new' }>, store: RequestStorage): Promise<number> {
  let text: string;
  try {
    text = await readFile(a.identifiers, 'utf8');
  } catch (e) {
    throw new UsageError(`--identifiers ${a.identifiers} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); give a file with one kind:value a line.`);
  }
  try {
    for (const t of a.titles) buildBaseUrl(a.endpoint, t);
  } catch (e) {
    throw new UsageError(`--endpoint: ${(e as Error).message}`);
  }
  let r: DataRequest;
  try {
    const identifiers = parseIdentifiers(text, { sandbox: a.sandbox });
    r = await createRequest(store, { reference: a.reference, asks: a.asks, identifiers, titles: a.titles, endpoint: a.endpoint, received: a.received, dueDays: a.dueDays, holdDays: a.holdDays, displayNamesNotUnique: a.displayNamesNotUnique }, await cliOperator());
  } catch (e) {
    if (e instanceof RequestError && !/already exists|no secret key/.test(e.message)) throw new UsageError(`--identifiers / --reference / --received / --due-days / --hold-days: ${e.message}`);
    throw e;
  }
  if (a.json) outJson({ id: r.id });
  else {
    out(`${r.id}\n`);
    err(`Request ${r.id} created: ticket ${r.reference}, received ${r.received}, due ${r.due}; ${r.identifiers.length} identifiers, titles ${r.titles.join(', ')}${r.holdUntil !== undefined ? `; erasures held until ${readableLocal(r.holdUntil)}` : ''}. Next: request run --dry-run.`);
  }
  return 0;
}

async function runCommand(a: Extract<RequestArgs, { sub: 'run' }>, store: RequestStorage, signal: AbortSignal): Promise<number> {
  if (a.dryRun) {
    const d = await withServices(store, a.id, signal, (s) => dryRun(store, a.id, s));
    if (a.json) outJson(d);
    else out(dryRunText(d));
    return d.unresolved.length > 0 || d.accounts.some((x) => x.error !== undefined) ? 1 : 0;
  }
  // Authenticated first: a state file changed by anything but this tool is refused, naming it.
  const r0 = await store.loadChecked(a.id);
  if (r0.resolution === undefined) throw new UsageError(`Request ${a.id} has had no dry run: run request run --dry-run first and check the accounts it acts on.`);
  let res;
  try {
    // Sends are not retried by the client: the journal and the pacer decide what is sent again.
    res = await withServices(store, a.id, signal, (s) => runActions(store, a.id, s, { confirm: a.confirm!, resendUnknown: a.resendUnknown }), { maxRetries: 0 });
  } catch (e) {
    if (e instanceof ConfirmMismatch) throw new UsageError(`--confirm: ${e.message}`);
    throw e;
  }
  const c = res.counts;
  if (a.json) outJson({ id: a.id, state: requestState(res.request), sent: res.sent, counts: c, cancelled: res.cancelled, ...(res.heldUntil !== undefined ? { heldUntil: res.heldUntil } : {}), actions: res.request.actions.map(shownAction) });
  else {
    out(actionsText(res.request));
    err(`Sent ${res.sent.export} export(s), ${res.sent.events} events-only erasure(s), ${res.sent.erasure} erasure(s). ${c.queued} queued, ${c.completed} completed, ${c.waiting} waiting, ${c.failed} failed, ${c.unknown} unknown, ${c.planned} not sent.${res.heldUntil !== undefined ? ` Erasures are held until ${readableLocal(res.heldUntil)}: run the same command then.` : ''}${res.cancelled ? ' Stopped before the next send: run the same command to continue.' : ''}`);
  }
  return c.failed + c.unknown + c.planned === 0 && !res.cancelled ? 0 : 1;
}

async function readSigner(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--signer ${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); give the file platform-explorer operator show --public-key wrote.`);
  }
}

/** A verify-evidence result: what was checked, and each problem (our own text and the pack's, escaped, not masked). */
function evidenceReport(what: string, json: boolean, v: EvidenceCheck & { id?: string; evidence?: string }): number {
  if (json) process.stdout.write(`${JSON.stringify(v, null, 2)}\n`);
  else {
    const head = v.ok ? `${what} holds: ${v.entries} entries, chain head ${v.head ?? ''}${v.signer ? `, signed by ${v.signer.name} (${v.signer.fingerprint})` : ''}.` : `${what} does NOT hold:\n  ${v.problems.join('\n  ')}`;
    process.stdout.write(ownText(`${head}\nChecked:\n${v.checked.map((c) => `  - ${c}`).join('\n')}\n`));
  }
  return v.ok ? 0 : 1;
}

export async function runRequestCommand(argv: readonly string[], signal: AbortSignal): Promise<number> {
  const a = parseRequestArgs(argv);
  if (a.sub === 'verify-evidence' && a.evidence !== undefined) {
    const v = await verifyEvidenceFile(a.evidence, { pem: await readSigner(a.signer!), from: a.signer! }).catch((e: NodeJS.ErrnoException) => {
      throw new UsageError(`--evidence ${a.evidence!} cannot be read (${e.code ?? e.message}); give the pack's evidence.json.`);
    });
    return evidenceReport(`The evidence pack ${a.evidence}`, a.json, { evidence: a.evidence, ...v });
  }
  // State files are sealed with the titles' keys and anchored beside the journals' anchors (the team store's newest save is its own anchor).
  const auth = { key: (t: string, titles: readonly string[]) => Promise.resolve(envKey(t, titles)), anchors: cliAnchors(), noAnchor: a.noAnchor, onNotice: err };
  let store: RequestStorage;
  if (a.store === 'postgres') store = await openTeamRequests(auth);
  else {
    try {
      store = await RequestStore.open(a.store, { label: '--store', auth });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  try {
    return await requestStep(a, store, signal);
  } finally {
    if (store instanceof PgRequestStore) await store.close();
  }
}

// eslint-disable-next-line complexity -- one branch per request sub-command, each a few lines; split when the CLI moves to declared commands (issue 31)
async function requestStep(a: Exclude<RequestArgs, { sub: 'verify-evidence'; evidence: string }>, store: RequestStorage, signal: AbortSignal): Promise<number> {
  switch (a.sub) {
    case 'new': return newCommand(a, store);
    case 'run': return runCommand(a, store, signal);
    case 'withdraw': {
      const r = await withdrawRequest(store, a.id, a.reason);
      if (a.json) outJson({ id: a.id, state: requestState(r), withdrawn: r.withdrawn });
      else out(`Request ${a.id} withdrawn ${readableLocal(r.withdrawn!.at)}: nothing more is sent for it. Next: ${nextStep(r)}.\n`);
      return 0;
    }
    case 'record-export': {
      const url = await readExportLink(a.receipt, a.urlFile);
      // Masked wherever an error or the output could repeat it.
      knownSecrets.push(url);
      const r = await recordExportLink(store, a.id, a.receipt, url, await cliOperator());
      if (a.json) outJson({ id: a.id, state: requestState(r), actions: r.actions.map(shownAction) });
      else out(actionsText(r));
      return 0;
    }
    case 'verify': {
      const v = await withServices(store, a.id, signal, (s) => verifyRequest(store, a.id, s));
      const complete = v.request.actions.every(isSettled);
      if (a.json) outJson({ id: a.id, state: requestState(v.request), complete, erased: v.erased, exported: v.exported, errors: v.errors.map((x) => serviceText(x, { max: 2000, secrets: knownSecrets })), actions: v.request.actions.map(shownAction) });
      else {
        out(actionsText(v.request));
        err(`${v.erased.length} erasure(s) and ${v.exported.length} export(s) found completed in this check${v.errors.length > 0 ? `; not checked: ${serviceText(v.errors.join('; '), { max: 2000, secrets: knownSecrets })}` : ''}.`);
      }
      return complete ? 0 : 1;
    }
    case 'close': {
      try {
        const c = await withServices(store, a.id, signal, (s) => closeRequest(store, a.id, s, { hashIdentifiers: a.hashIdentifiers }));
        const result = { id: a.id, state: requestState(c.request), closedAt: c.request.closedAt, evidence: { json: store.evidencePath(a.id, 'json'), markdown: store.evidencePath(a.id, 'md'), entries: c.evidence.entries.length, head: c.evidence.head }, identifiersHashed: c.request.identifiersHashedAt !== undefined };
        if (a.json) outJson(result);
        else out(`Request ${a.id} closed ${c.request.closedAt}; evidence: ${result.evidence.markdown} and ${result.evidence.json} (${result.evidence.entries} entries, chain head ${c.evidence.head})${result.identifiersHashed ? '; personal identifiers replaced by their hashes' : ''}.\n`);
        return 0;
      } catch (e) {
        if (e instanceof RequestError && a.hashIdentifiers && /already closed/.test(e.message)) {
          const h = await hashIdentifiers(store, a.id, { operator: await cliOperator(), keys: cliKeyStore() });
          if (a.json) outJson({ id: a.id, state: requestState(h.request), identifiersHashed: true, evidence: { entries: h.evidence.entries.length, head: h.evidence.head } });
          else out(`Request ${a.id}: personal identifiers replaced by their hashes in its evidence and state file; its journals removed.\n`);
          return 0;
        }
        throw e;
      }
    }
    case 'verify-evidence': {
      const signer = a.signer === undefined ? undefined : { pem: await readSigner(a.signer), from: a.signer };
      const v = await verifyEvidence(store, a.id!, { operator: await cliOperator(), keys: cliKeyStore(), anchors: cliAnchors(), signer });
      return evidenceReport(`The evidence of request ${a.id!}`, a.json, { id: a.id, ...v });
    }
    case 'shred': {
      const r = await shredRequest(store, a.id, { operator: await cliOperator(), keys: cliKeyStore() });
      if (a.json) outJson({ id: a.id, state: requestState(r), identifiersHashedAt: r.identifiersHashedAt, shreddedAt: r.shreddedAt });
      else out(`Request ${a.id}: its pseudonymisation key is destroyed; the identifiers' hashes in its evidence and state file can no longer be linked to anyone (anonymised). The evidence still verifies.\n`);
      return 0;
    }
    case 'show': {
      if (a.id !== undefined) {
        const r = await store.load(a.id);
        if (a.json) outJson({ ...summary(r), asks: r.asks, titles: r.titles, identifiers: r.identifiers, dryRun: r.resolution !== undefined ? describe(r) : undefined, actions: r.actions.map(shownAction), closedAt: r.closedAt, evidenceHead: r.evidenceHead });
        else out(`${r.reference}: received ${r.received}, due ${r.due}${isOverdue(r) ? ' (OVERDUE)' : ''}; asks ${r.asks.join(', ')}\n${actionsText(r)}`);
        return 0;
      }
      const { requests, problems } = await store.list();
      const queue = store instanceof PgRequestStore ? await store.queueState() : undefined;
      if (a.json) outJson({ requests: requests.map((r) => ({ ...summary(r), ...(queue !== undefined ? queueOf(r, queue) : {}) })), problems });
      else {
        out(requests.map((r) => { const s = summary(r); return `${r.id}  ${String(s.state).padEnd(14)} due ${r.due}${s.overdue ? ' OVERDUE' : ''}  ${r.reference}  (${String(s.completed)}/${String(s.actions)} actions completed)${queue !== undefined ? `\n${queueText(r, queue)}` : ''}`; }).join('\n') + (requests.length > 0 ? '\n' : 'No requests.\n'));
        for (const p of problems) err(p);
      }
      return problems.length > 0 ? 1 : 0;
    }
  }
}
