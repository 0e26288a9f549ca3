// platform-explorer: compliance deletion from a terminal (the same core as the editor).
// The secret key comes from PLATFORM_SECRET_KEY only. Exit 0 all done, 1 failed/unknown, 2 bad usage.
import { randomUUID } from 'node:crypto';
import { lstat, readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { PlatformClient } from '../core/api/client';
import { PlatformError } from '../core/api/errors';
import { readableLocal } from '../core/time';
import {
  buildPlan, confirmValue, countByStatus, Journal, JOURNAL_VERSION, JournalError, ledgerCsv, ledgerFromJournal, ledgerJson, planJson,
  readIdentifiers, renderPlanText, runBatch, verifyQueued, type AnchorStore, type BatchRecord, type LedgerEntry,
} from '../core/deletion';
import { parseArgs, UsageError, USAGE, type DeleteArgs, type VerifyArgs } from './args';
import { checkOwnFile, checkReceiptsPath, cliAnchors, priorLedger, writeWhole } from './files';
import { MCP_USAGE, runMcp } from './mcp';
import { OPERATOR_USAGE, runOperatorCommand } from './operator';
import { OperatorError } from '../core/operator';
import { runRequestCommand } from './request';
import { REQUEST_USAGE } from './requestArgs';
import { RequestError } from '../core/requests/types';
import { serviceText, serviceValue } from '../core/serviceText';
import { VERSION } from '../core/version';
import { jsonLines, knownSecrets, rowOf, table, terminal, type Row } from './output';
import type { BatchJournal } from '../core/store/types';
import { PgBatch } from '../core/store/postgres';
import { openStoreBatch, runStoreCommand, STORE_USAGE } from './teamStore';

const out = (s: string): void => void process.stdout.write(terminal(s));
/** JSON for stdout: its strings are made safe before it is written (never cut afterwards, so it stays JSON). */
const outJson = (text: string): void => void process.stdout.write(text);
const err = (s: string): void => void process.stderr.write(terminal(s.endsWith('\n') ? s : `${s}\n`));

function secretKey(): string {
  const key = process.env.PLATFORM_SECRET_KEY;
  if (key === undefined || key.trim() === '') {
    throw new UsageError('PLATFORM_SECRET_KEY is not set: export the title\'s secret key in that environment variable (it is never read from an argument).');
  }
  knownSecrets.push(key);
  return key;
}

function client(a: { titleId: string; endpoint: string }, key: string, maxRetries?: number): PlatformClient {
  try {
    return new PlatformClient({ titleId: a.titleId, endpoint: a.endpoint, getSecretKey: () => Promise.resolve(key), maxRetries });
  } catch (e) {
    throw new UsageError(`--endpoint / --title: ${(e as Error).message}`);
  }
}

async function writeReceipts(path: string, entries: LedgerEntry[]): Promise<void> {
  await writeWhole(path, path.toLowerCase().endsWith('.csv') ? ledgerCsv(entries) : ledgerJson(entries));
}

function print(rows: Row[], json: boolean): void {
  if (json) outJson(jsonLines(rows));
  else out(table(rows));
}

/** An unexpected failure's message: it may quote anything (an answer, a file), so it is treated as service text. */
const unexpected = (e: unknown): string => serviceText(e instanceof Error ? e.message : String(e), { max: 2000, secrets: knownSecrets });

const refused = (): string => 'Nothing was sent. Run the same command with --dry-run, check the plan, and copy the value from its last line, "To send: --confirm N:DIGEST".';

/** A data request's journal of exports or events-only erasures is run by `request run`, never as deletions. */
function refuseRequestJournal(b: BatchRecord, path: string): void {
  if (b.operation !== undefined) throw new UsageError(`--journal ${path} is a data request's journal of ${b.operation}, not of deletions; continue it with platform-explorer request run.`);
}

/** The batch a --resume continues, and what it says about it. */
async function resumed(a: DeleteArgs, key: string, anchors: AnchorStore): Promise<{ batch: BatchRecord; summary: string; entries: LedgerEntry[] }> {
  const found = await Journal.read(a.journal, key, anchors);
  if (found === undefined) throw new UsageError(`--resume: there is no journal at ${a.journal}; give the --journal of the batch to resume, or leave out --resume to start a new batch.`);
  const b = found.batch;
  refuseRequestJournal(b, a.journal);
  if (b.titleId !== a.titleId || b.kind !== a.kind) {
    throw new UsageError(`--journal ${a.journal} belongs to a batch of title ${b.titleId} (${b.kind}), not ${a.titleId} (${a.kind}); give the same --title and --kind, or another --journal.`);
  }
  const j = await Journal.open(a.journal, { key, anchors, noAnchor: a.noAnchor });
  if (j.notice !== undefined) err(j.notice);
  return summarise(a, j);
}

/** What a --resume says about the batch it continues (closing `j`). */
async function summarise(a: DeleteArgs, j: BatchJournal): Promise<{ batch: BatchRecord; summary: string; entries: LedgerEntry[] }> {
  const b = j.batch;
  const held = j instanceof PgBatch ? j.held.size : 0;
  const entries = ledgerFromJournal(j.batch, j.players());
  const states = [...j.players().values()].map((p) => p.state);
  await j.close();
  if (b.kind !== a.kind) throw new UsageError(`Batch ${b.batchId} is a batch of ${b.kind}, not ${a.kind}; give the same --kind. Nothing was sent.`);
  const n = (s: string): number => states.filter((x) => x === s).length;
  const summary = `Resuming batch ${b.batchId} of title ${b.titleId}${b.metaData ? `, ticket ${b.metaData}` : ''}, started ${readableLocal(b.createdAt)}: ${states.length} players, `
    + `${n('queued') + n('verified-deleted')} queued, ${n('pending')} not sent, ${n('unknown') - held} sent without an answer (sent again), ${n('failed')} failed`
    + `${held > 0 ? `, ${held} being sent by another run now (left to it)` : ''}.`
    + `${a.input !== undefined ? ' --input is not read when resuming.' : ''}`;
  return { batch: b, summary, entries };
}

// eslint-disable-next-line complexity, max-lines-per-function -- the delete-players steps in order (key, plan, confirm, run, receipts) over one set of options; commands/ is being reworked into declared commands (issue 31) and the CLI with it
async function deletePlayers(a: DeleteArgs, signal: AbortSignal): Promise<number> {
  const key = secretKey();
  const anchors = cliAnchors();
  const inStore = a.store === 'postgres';
  if (!inStore) await checkOwnFile(a.journal, '--journal');
  if (a.receipts !== undefined) {
    await checkOwnFile(a.receipts, '--receipts');
    if (!inStore) await checkReceiptsPath(a.receipts, a.journal);
  }
  let journal: BatchJournal;
  if (a.resume) {
    const r = inStore ? await summarise(a, await openStoreBatch(a, key)) : await resumed(a, key, anchors);
    err(r.summary);
    const value = confirmValue(r.batch);
    if (a.dryRun) {
      print(r.entries.map(rowOf), a.json);
      if (a.json) outJson(`${JSON.stringify({ confirm: value })}\n`);
      else out(`To send: --confirm ${value}\n`);
      return 0;
    }
    if (a.confirm !== value) {
      err(`--confirm does not match this journal's batch. ${refused()}`);
      return 2;
    }
    journal = inStore ? await openStoreBatch(a, key) : await Journal.open(a.journal, { key, anchors, noAnchor: a.noAnchor });
  } else {
    if (!inStore && await lstat(a.journal).then(() => true, () => false)) {
      throw new UsageError(`--journal ${a.journal} already exists. To resume the batch it holds, add --resume; for a new batch, give a new --journal file. It was not read as a plan and nothing was sent.`);
    }
    const input = a.input!;
    let text: string;
    try {
      text = await readFile(input, 'utf8');
    } catch (e) {
      throw new UsageError(`--input ${input} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); give a file with one identifier per line.`);
    }
    const lines = readIdentifiers(text, a.kind, { csv: input.toLowerCase().endsWith('.csv') });
    if (lines.length === 0) throw new UsageError(`--input ${input} holds no identifiers; put one per line.`);
    const planner = client(a, key);
    let plan;
    // The team store's claims refuse a player another batch queued; a journal folder's ledger is read here.
    const prior = inStore ? { entries: [], unreadable: [], notRead: 0 } : await priorLedger(a.journal, key, a.titleId, anchors);
    try {
      plan = await buildPlan(planner, { titleId: a.titleId, kind: a.kind, sandbox: a.sandbox, lines, ledger: prior.entries, signal });
    } finally {
      await planner.close();
    }
    // A journal of this title that cannot be read may record deletions of these players: say so, and send nothing until it is dealt with.
    const unsure = prior.unreadable.length > 0 || prior.notRead > 0;
    if (unsure) {
      err(`Earlier journals of title ${a.titleId} in ${dirname(resolve(a.journal))} could not all be read, so players they queued may be planned again: `
        + `${[...prior.unreadable.slice(0, 10), ...(prior.notRead > 0 ? [`${prior.notRead} more journals beyond the 500 read`] : [])].join('; ')}. `
        + 'Move journals that are not this title key\'s out of the folder (keep them: they are records), or use a folder of their own; nothing is sent until then.');
    }
    const value = confirmValue(plan);
    if (a.dryRun) {
      if (a.json) outJson(`${JSON.stringify(serviceValue({ ...JSON.parse(planJson(plan)) as object, confirm: value }, { max: 1000, secrets: knownSecrets }), null, 2)}\n`);
      else out(`${renderPlanText(plan)}\nTo send: --confirm ${value}\n`);
      return countByStatus(plan).failed > 0 || unsure ? 1 : 0;
    }
    if (unsure) return 1;
    if (a.confirm !== value) {
      err(`--confirm does not match this plan (its players, title and kind). ${refused()}`);
      return 2;
    }
    const create: BatchRecord = {
      type: 'batch', version: JOURNAL_VERSION, batchId: a.batch ?? randomUUID(), titleId: a.titleId, kind: a.kind, sandbox: a.sandbox,
      metaData: a.metaData, createdAt: plan.createdAt, entries: plan.entries,
    };
    journal = inStore ? await openStoreBatch(a, key, create) : await Journal.open(a.journal, { key, anchors, create });
  }

  const sender = client(a, key, 0);
  try {
    // --resume is the user's confirmation to resend players whose outcome is unknown.
    const r = await runBatch(sender, journal, { resendUnknown: a.resume, signal });
    for (const l of r.lost) err(`Not sent by this run: ${l.platformId}: ${l.why}.`);
    // Other runs may have moved a shared batch on: its rows are read again.
    if (journal instanceof PgBatch) await journal.reload();
    const entries = ledgerFromJournal(journal.batch, journal.players());
    if (a.receipts !== undefined) await writeReceipts(a.receipts, entries);
    print(entries.map(rowOf), a.json);
    if (!a.json) {
      err(`${r.queued} of ${r.total} queued, ${r.failed} failed, ${r.unknown} unknown, ${r.pending} not sent; ${r.sent} requests, ${r.throttled} throttled.${r.cancelled ? ' Stopped before the next send; run the same command with --resume to continue.' : ''}`);
    }
    if (journal instanceof PgBatch) {
      const states = [...journal.players().values()].map((p) => p.state);
      const done = states.filter((x) => x === 'queued' || x === 'verified-deleted').length;
      if (!a.json && journal.held.size > 0) err(`${journal.held.size} players are being sent by other runs of batch ${journal.batch.batchId} now.`);
      return done === states.length ? 0 : 1;
    }
    return r.queued === r.total ? 0 : 1;
  } finally {
    await sender.close();
    await journal.close();
  }
}

/** The --journal a verify-deletions run appends to. */
async function openJournalToVerify(a: VerifyArgs, key: string): Promise<Journal> {
  const anchors = cliAnchors();
  await checkOwnFile(a.journal, '--journal');
  if ((await Journal.read(a.journal, key, anchors)) === undefined) throw new UsageError(`--journal ${a.journal} does not exist or holds no batch; give the file delete-players wrote.`);
  refuseRequestJournal((await Journal.read(a.journal, key, anchors))!.batch, a.journal);
  const journal = await Journal.open(a.journal, { key, anchors, noAnchor: a.noAnchor });
  if (journal.notice !== undefined) err(journal.notice);
  return journal;
}

async function verifyDeletions(a: VerifyArgs, signal: AbortSignal): Promise<number> {
  const key = secretKey();
  const journal = a.store === 'postgres' ? await openStoreBatch(a, key) : await openJournalToVerify(a, key);
  if (journal.batch.titleId !== a.titleId) {
    await journal.close();
    throw new UsageError(`--journal ${a.journal} belongs to title ${journal.batch.titleId}, not ${a.titleId}.`);
  }
  const c = client(a, key);
  try {
    const before = ledgerFromJournal(journal.batch, journal.players());
    const r = await verifyQueued(c, before, (platformId, at) => journal.append({ type: 'verified', platformId, at }), { signal });
    if (journal instanceof PgBatch) await journal.reload();
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

// eslint-disable-next-line complexity -- the dispatcher: one branch per command and exit code
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
    if (process.argv[2] === '--version') {
      out(`${VERSION}\n`);
      return 0;
    }
    if (process.argv[2] === 'mcp' && !process.argv.includes('--help')) return await runMcp(process.argv.slice(3), ac.signal);
    if (process.argv[2] === 'operator' && !process.argv.includes('--help')) return await runOperatorCommand(process.argv.slice(3));
    if (process.argv[2] === 'store' && !process.argv.includes('--help') && !process.argv.includes('-h')) {
      out(`${await runStoreCommand(process.argv.slice(3))}\n`);
      return 0;
    }
    if (process.argv[2] === 'request' && !process.argv.includes('--help') && !process.argv.includes('-h')) return await runRequestCommand(process.argv.slice(3), ac.signal);
    const a = parseArgs(process.argv.slice(2));
    if (a.command === 'help') {
      out(`${USAGE}\n${MCP_USAGE}\n\n${REQUEST_USAGE}\n\n${OPERATOR_USAGE}\n\n${STORE_USAGE}\n`);
      return 0;
    }
    return a.command === 'delete-players' ? await deletePlayers(a, ac.signal) : await verifyDeletions(a, ac.signal);
  } catch (e) {
    if (e instanceof UsageError) {
      err(`${e.message}`);
      return 2;
    }
    if (e instanceof JournalError || e instanceof RequestError || e instanceof OperatorError) {
      err(e.message);
      return 1;
    }
    if (e instanceof PlatformError) {
      err(`${e.message} ${e.hint}`);
      return 1;
    }
    err(`Failed: ${unexpected(e)}`);
    return 1;
  }
}

main().then((code) => {
  process.exitCode = code;
}, (e: unknown) => {
  err(`Failed: ${unexpected(e)}`);
  process.exitCode = 1;
});
