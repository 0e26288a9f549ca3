// platform-explorer: compliance deletion from a terminal (the same core as the editor).
// The secret key comes from PLATFORM_SECRET_KEY only. Exit 0 all done, 1 failed/unknown, 2 bad usage.
import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { PlatformClient } from '../core/api/client';
import { PlatformError } from '../core/api/errors';
import {
  buildPlan, countByStatus, Journal, JournalError, ledgerCsv, ledgerFromJournal, ledgerJson, planJson, readIdentifiers,
  renderPlanText, runBatch, toDelete, verifyQueued, type LedgerEntry,
} from '../core/deletion';
import { parseArgs, UsageError, USAGE, type DeleteArgs, type VerifyArgs } from './args';
import { MCP_USAGE, runMcp } from './mcp';
import { jsonLines, rowOf, table, type Row } from './output';

const out = (s: string): void => void process.stdout.write(s);
const err = (s: string): void => void process.stderr.write(s.endsWith('\n') ? s : `${s}\n`);

function secretKey(): string {
  const key = process.env.PLATFORM_SECRET_KEY;
  if (key === undefined || key.trim() === '') {
    throw new UsageError('PLATFORM_SECRET_KEY is not set: export the title\'s secret key in that environment variable (it is never read from an argument).');
  }
  return key;
}

function client(a: { titleId: string; endpoint: string }, key: string, maxRetries?: number): PlatformClient {
  try {
    return new PlatformClient({ titleId: a.titleId, endpoint: a.endpoint, getSecretKey: () => Promise.resolve(key), maxRetries });
  } catch (e) {
    throw new UsageError(`--endpoint / --title: ${(e as Error).message}`);
  }
}

/** Earlier receipts (a JSON export) as the ledger for "already queued"; none when absent or CSV. */
async function priorReceipts(path: string | undefined): Promise<LedgerEntry[]> {
  if (path === undefined || path.toLowerCase().endsWith('.csv')) return [];
  try {
    const v = JSON.parse(await readFile(path, 'utf8')) as { deletions?: LedgerEntry[] };
    return Array.isArray(v.deletions) ? v.deletions.filter((e) => typeof e?.platformId === 'string') : [];
  } catch {
    return [];
  }
}

async function writeReceipts(path: string, entries: LedgerEntry[]): Promise<void> {
  await writeFile(path, path.toLowerCase().endsWith('.csv') ? ledgerCsv(entries) : ledgerJson(entries), { mode: 0o600 });
}

function print(rows: Row[], json: boolean): void {
  out(json ? jsonLines(rows) : table(rows));
}

async function deletePlayers(a: DeleteArgs, signal: AbortSignal): Promise<number> {
  const key = secretKey();
  let journal: Journal | undefined;
  const existing = await Journal.read(a.journal);
  if (existing !== undefined) {
    const b = existing.batch;
    if (b.titleId !== a.titleId || b.kind !== a.kind) {
      throw new UsageError(`--journal ${a.journal} belongs to a batch of title ${b.titleId} (${b.kind}), not ${a.titleId} (${a.kind}); use a new --journal file for a new batch.`);
    }
    const planned = b.entries.filter((e) => e.status === 'delete').length;
    if (a.dryRun) {
      const j = await Journal.open(a.journal);
      const entries = ledgerFromJournal(j.batch, j.players());
      await j.close();
      if (!a.json) out(`Journal ${a.journal}: batch ${b.batchId} of ${planned} players, made ${b.createdAt}. Nothing sent now.\n`);
      print(entries.map(rowOf), a.json);
      return 0;
    }
    if (a.confirm !== planned) {
      err(`--confirm ${a.confirm} does not match this journal's batch of ${planned} players to delete; nothing was sent. Run it again with --confirm ${planned} to resume.`);
      return 2;
    }
    journal = await Journal.open(a.journal);
    if (!a.json) err(`Resuming batch ${b.batchId} from ${a.journal} (its plan of ${planned}; --input is not read again).`);
  } else {
    let text: string;
    try {
      text = await readFile(a.input, 'utf8');
    } catch (e) {
      throw new UsageError(`--input ${a.input} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); give a file with one identifier per line.`);
    }
    const lines = readIdentifiers(text, a.kind, { csv: a.input.toLowerCase().endsWith('.csv') });
    if (lines.length === 0) throw new UsageError(`--input ${a.input} holds no identifiers; put one per line.`);
    const planner = client(a, key);
    let plan;
    try {
      plan = await buildPlan(planner, { titleId: a.titleId, kind: a.kind, sandbox: a.sandbox, lines, ledger: await priorReceipts(a.receipts), signal });
    } finally {
      await planner.close();
    }
    const count = toDelete(plan).length;
    if (a.dryRun) {
      out(a.json ? planJson(plan) : renderPlanText(plan));
      return countByStatus(plan).failed > 0 ? 1 : 0;
    }
    if (a.confirm !== count) {
      err(renderPlanText(plan));
      err(`--confirm ${a.confirm} does not match the ${count} players this plan deletes; nothing was sent. Check the plan above, then run again with --confirm ${count}.`);
      return 2;
    }
    journal = await Journal.open(a.journal, {
      type: 'batch', version: 1, batchId: randomUUID(), titleId: a.titleId, kind: a.kind, sandbox: a.sandbox,
      metaData: a.metaData, createdAt: plan.createdAt, entries: plan.entries,
    });
  }

  const sender = client(a, key, 0);
  try {
    // Rerunning the command is the user's confirmation to resend players whose outcome is unknown.
    const r = await runBatch(sender, journal, { resendUnknown: existing !== undefined, signal });
    const entries = ledgerFromJournal(journal.batch, journal.players());
    if (a.receipts !== undefined) await writeReceipts(a.receipts, entries);
    print(entries.map(rowOf), a.json);
    if (!a.json) {
      err(`${r.queued} of ${r.total} queued, ${r.failed} failed, ${r.unknown} unknown, ${r.pending} not sent; ${r.sent} requests, ${r.throttled} throttled.${r.cancelled ? ' Stopped before the next send; run the same command again to resume.' : ''}`);
    }
    return r.queued === r.total ? 0 : 1;
  } finally {
    await sender.close();
    await journal.close();
  }
}

async function verifyDeletions(a: VerifyArgs, signal: AbortSignal): Promise<number> {
  const key = secretKey();
  if ((await Journal.read(a.journal)) === undefined) throw new UsageError(`--journal ${a.journal} does not exist or holds no batch; give the file delete-players wrote.`);
  const journal = await Journal.open(a.journal);
  if (journal.batch.titleId !== a.titleId) {
    await journal.close();
    throw new UsageError(`--journal ${a.journal} belongs to title ${journal.batch.titleId}, not ${a.titleId}.`);
  }
  const c = client(a, key);
  try {
    const before = ledgerFromJournal(journal.batch, journal.players());
    const r = await verifyQueued(c, before, (platformId, at) => journal.append({ type: 'verified', platformId, at }), { signal });
    const players = journal.players();
    const entries = ledgerFromJournal(journal.batch, players);
    const rows = entries.map((e) => {
      const error = r.errors.find((x) => x.platformId === e.platformId)?.error;
      return error !== undefined ? { ...rowOf(e), detail: `not checked: ${error}` } : rowOf(e);
    });
    print(rows, a.json);
    const all = [...players.values()];
    const verified = all.filter((p) => p.state === 'verified-deleted').length;
    if (!a.json) err(`${verified} of ${all.length} verified deleted; ${r.stillQueued.length} still queued; ${r.errors.length} not checked.`);
    return verified === all.length ? 0 : 1;
  } finally {
    await c.close();
    await journal.close();
  }
}

async function main(): Promise<number> {
  const ac = new AbortController();
  const stop = (): void => {
    if (ac.signal.aborted) process.exit(1);
    err('Stopping before the next send (press again to quit at once)...');
    ac.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    if (process.argv[2] === 'mcp' && !process.argv.includes('--help')) return await runMcp(process.argv.slice(3), ac.signal);
    const a = parseArgs(process.argv.slice(2));
    if (a.command === 'help') {
      out(`${USAGE}\n${MCP_USAGE}\n`);
      return 0;
    }
    return a.command === 'delete-players' ? await deletePlayers(a, ac.signal) : await verifyDeletions(a, ac.signal);
  } catch (e) {
    if (e instanceof UsageError) {
      err(`${e.message}`);
      return 2;
    }
    if (e instanceof JournalError) {
      err(e.message);
      return 1;
    }
    if (e instanceof PlatformError) {
      err(`${e.message} ${e.hint}`);
      return 1;
    }
    err(`Failed: ${(e as Error).message}`);
    return 1;
  }
}

main().then((code) => {
  process.exitCode = code;
}, (e: unknown) => {
  err(`Failed: ${(e as Error).message}`);
  process.exitCode = 1;
});
