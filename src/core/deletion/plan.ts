// The dry run: each input identifier resolved to a PlatformId (bulk lookups), checked against
// the ledger and the service (GetPlayedTitleList, paced), and classified.
import { createHash } from 'node:crypto';
import { PlatformError } from '../api/errors';
import { quoteForMessage } from '../ids';
import { readableLocal, readableUtc } from '../time';
import type { InputLine } from './input';
import { checkPlayedTitles } from '../playedTitles';
import type { DeletionClient, IdKind, LedgerEntry, Plan, PlanEntry, PlanStatus } from './types';

export interface PlanOptions {
  titleId: string;
  kind: IdKind;
  sandbox?: string;
  lines: readonly InputLine[];
  /** Deletions already recorded: a player with a queued one is not sent again. */
  ledger?: readonly LedgerEntry[];
  signal?: AbortSignal;
  /** GetPlayedTitleList calls in flight at most (default 4). */
  concurrency?: number;
  onProgress?: (checked: number, total: number) => void;
  now?: () => Date;
}

/** Classifies every input line; only `delete` entries are sent by a run. */
export async function buildPlan(client: DeletionClient, o: PlanOptions): Promise<Plan> {
  const entries: PlanEntry[] = o.lines.map((l) => (l.invalid !== undefined
    ? { line: l.line, input: l.input, status: 'invalid', reason: l.invalid }
    : { line: l.line, input: l.input, ...(l.from !== undefined ? { from: l.from } : {}), status: 'delete' }));
  const firstLine = new Map<string, number>();
  o.lines.forEach((l, i) => {
    if (l.value === undefined) return;
    const seen = firstLine.get(l.value);
    if (seen !== undefined) Object.assign(entries[i], { status: 'duplicate', reason: `the same identifier as line ${seen}` });
    else firstLine.set(l.value, l.line);
  });

  const values = [...firstLine.keys()];
  const resolved = new Map<string, string | null>();
  if (o.kind === 'platform-id') values.forEach((v) => resolved.set(v, v));
  else if (values.length > 0) {
    const pairs = o.kind === 'consolelive'
      ? (await client.getPlatformIdsFromConsoleLiveIds(values, o.sandbox, { signal: o.signal })).map((p) => [p.ConsoleLiveAccountId, p.PlatformId] as const)
      : (await client.getPlatformIdsFromStorefrontNames(values, { signal: o.signal })).map((p) => [p.StorefrontName, p.PlatformId] as const);
    for (const [id, pid] of pairs) resolved.set(id, pid === null ? null : pid.toUpperCase());
  }

  const queued = new Map<string, LedgerEntry>();
  for (const j of o.ledger ?? []) if (j.state === 'queued') queued.set(j.platformId.toUpperCase(), j);
  // Deleted players resolve to nothing: the ledger knows them by the identifier given and by PlatformId.
  const deleted = new Map<string, LedgerEntry>();
  for (const j of o.ledger ?? []) {
    if (j.state !== 'verified-deleted' || j.titleId.toUpperCase() !== o.titleId.toUpperCase()) continue;
    deleted.set(`pid:${j.platformId.toUpperCase()}`, j);
    deleted.set(`in:${j.input}`, j);
  }
  const ledgerDeleted = (e: PlanEntry, j: LedgerEntry): void => {
    Object.assign(e, { status: 'already-deleted', platformId: j.platformId.toUpperCase(), reason: `already deleted (ledger, verified ${readableUtc(j.verifiedAt ?? j.requestedAt)})` });
  };
  const byPlayer = new Map<string, number>();
  const toCheck: PlanEntry[] = [];
  o.lines.forEach((l, i) => {
    const e = entries[i];
    if (e.status !== 'delete') return;
    const pid = resolved.get(l.value!) ?? null;
    const known = deleted.get(pid === null ? `in:${l.value!}` : `pid:${pid}`);
    if (known !== undefined) {
      ledgerDeleted(e, known);
      return;
    }
    if (pid === null) {
      Object.assign(e, { status: 'unlinked', reason: 'not linked to a player of this title' });
      return;
    }
    e.platformId = pid;
    const seen = byPlayer.get(pid);
    if (seen !== undefined) {
      Object.assign(e, { status: 'duplicate', reason: `the same player as line ${seen}` });
      return;
    }
    byPlayer.set(pid, l.line);
    const job = queued.get(pid);
    if (job !== undefined) {
      Object.assign(e, { status: 'already-queued', titleIds: job.titleIds, reason: `queued ${job.requestedAt}, JobReceiptId ${job.jobReceiptId ?? 'none returned'}` });
      return;
    }
    toCheck.push(e);
  });

  await checkPlayers(client, toCheck, o);
  return { titleId: o.titleId, kind: o.kind, sandbox: o.sandbox, createdAt: (o.now?.() ?? new Date()).toISOString(), entries };
}

/** GetPlayedTitleList for each player, a few at a time, paced like the deletions (core/playedTitles.ts). */
async function checkPlayers(client: DeletionClient, todo: PlanEntry[], o: PlanOptions): Promise<void> {
  const checked = await checkPlayedTitles(client, todo.map((e) => e.platformId!), {
    signal: o.signal,
    concurrency: o.concurrency,
    onProgress: o.onProgress,
    cancelled: () => new PlatformError({ kind: 'cancelled', message: 'Cancelled while checking the players; nothing was deleted.', hint: 'Run it again when ready.' }),
  });
  for (const e of todo) {
    const check = checked.get(e.platformId!);
    if (check?.status === 'found') e.titleIds = check.titleIds;
    else if (check?.status === 'not-found') Object.assign(e, { status: 'already-deleted', reason: 'the service reports no such player (AccountNotFound)' });
    else if (check?.status === 'failed') Object.assign(e, { status: 'failed', reason: `could not check the played titles: ${check.reason}` });
  }
}

const STATUS_ORDER: readonly PlanStatus[] = ['delete', 'already-queued', 'already-deleted', 'unlinked', 'duplicate', 'invalid', 'failed'];

const HEADINGS: Record<PlanStatus, string> = {
  delete: 'To delete',
  'already-queued': 'Already queued (per the ledger; not sent again)',
  'already-deleted': 'Already deleted (AccountNotFound, or per the ledger)',
  unlinked: 'Unlinked (no player)',
  duplicate: 'Duplicate',
  invalid: 'Invalid format',
  failed: 'Could not check (not sent)',
};

export function countByStatus(plan: Plan): Record<PlanStatus, number> {
  const counts = Object.fromEntries(STATUS_ORDER.map((s) => [s, 0])) as Record<PlanStatus, number>;
  for (const e of plan.entries) counts[e.status]++;
  return counts;
}

/**
 * What `--confirm` takes to send this plan: "N:DIGEST", N the players it deletes and DIGEST a short
 * digest of them, the title and the kind, so a confirmation made for one plan never sends another.
 */
export function confirmValue(plan: { titleId: string; kind: IdKind; entries: readonly PlanEntry[] }): string {
  const players = toDelete(plan).map((e) => e.platformId ?? '').sort();
  return confirmDigest(players.length, [plan.titleId.toUpperCase(), plan.kind, players]);
}

/** "N:DIGEST": a count and a short digest of what it counts (what --confirm takes; a data request's too). */
export function confirmDigest(count: number, what: unknown): string {
  return `${count}:${createHash('sha256').update(JSON.stringify(what)).digest('hex').slice(0, 12)}`;
}

/** The form of a --confirm value. */
export const CONFIRM_RE = /^\d{1,9}:[0-9a-f]{12}$/;

/** The players a run of this plan deletes. */
export function toDelete(plan: { entries: readonly PlanEntry[] }): PlanEntry[] {
  return plan.entries.filter((e) => e.status === 'delete');
}

const KIND_WORDS: Record<IdKind, string> = { 'platform-id': 'PlatformIds', consolelive: 'ConsoleLive IDs', storefront: 'Storefront names' };

/** The dry run as a readable document; `titleNames` labels title IDs where known. */
// eslint-disable-next-line complexity -- the dry-run document top to bottom, optional lines with ?: (counted as branches)
export function renderPlanText(plan: Plan, titleNames: Record<string, string> = {}): string {
  const title = (id: string): string => (titleNames[id] ? `${id} (${titleNames[id]})` : id);
  const counts = countByStatus(plan);
  const out = [
    `Deletion plan (dry run) for title ${title(plan.titleId)}: ${plan.entries.length} ${KIND_WORDS[plan.kind]}${plan.sandbox ? ` in sandbox ${plan.sandbox}` : ''}`,
    // In the reader's zone, named once ("2026-11-02 11:15 GMT+1"), never the raw ISO time.
    `Made ${readableLocal(plan.createdAt)}. Nothing has been deleted.`,
    '',
    STATUS_ORDER.map((s) => `${HEADINGS[s].replace(/ \(.*\)$/, '')}: ${counts[s]}`).join(' · '),
  ];
  for (const s of STATUS_ORDER) {
    const list = plan.entries.filter((e) => e.status === s);
    if (list.length === 0) continue;
    out.push('', `## ${HEADINGS[s]}: ${list.length}`);
    for (const e of list) {
      const who = e.platformId !== undefined && e.platformId !== e.input ? `${quoteForMessage(e.input)} -> ${e.platformId}` : quoteForMessage(e.input);
      const what = s === 'delete' || s === 'already-queued'
        ? `wipes ${e.titleIds && e.titleIds.length > 0 ? e.titleIds.map(title).join(', ') : '(no played titles reported)'}`
        : e.reason ?? '';
      const from = e.from !== undefined ? ` (in "${quoteForMessage(e.from, 80)}")` : '';
      out.push(`line ${e.line}: ${who}${from}${what ? `  ${what}` : ''}${s === 'already-queued' && e.reason ? ` (${e.reason})` : ''}`);
    }
  }
  return out.join('\n') + '\n';
}

/** The dry run as JSON. */
export function planJson(plan: Plan): string {
  return JSON.stringify({ ...plan, counts: countByStatus(plan) }, null, 2) + '\n';
}
