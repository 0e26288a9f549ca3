// One phase of the scale bench (issue 33) in a process of its own: a batch of n players planned and
// journaled (the file journal or the team store), killed -9 by itself once half are sent; or the
// batch resumed after that kill. The service is an in-process stub that answers at once, so the
// times are the plan's, the journal's or the store's, not the network's.
// The plan is made here as the dry run leaves it (each player to delete), not through the service.
// Input (argv[2], JSON): {core, phase: 'run'|'resume', mode: 'file'|'pg', n, journal, storeUrl, secretKey, titleId}
// Output (last stdout line, JSON, resume only): {openMs, runMs, heapBytes, rssBytes, players, queued, held}
import { createRequire } from 'node:module';

const input = JSON.parse(process.argv[2]);
const { FolderAnchorStore, Journal, JOURNAL_VERSION, Pacer, runBatch, openPgBatch } = createRequire(import.meta.url)(input.core);

const hex = (i) => (0x1000000000000000n + BigInt(i) * 7919n).toString(16).toUpperCase();
const stub = {
  deleteMasterPlayerAccount: async (r) => ({ JobReceiptId: `job-${r.PlatformId.slice(-8)}` }),
  getPlayedTitleList: async () => ({ TitleIds: [input.titleId] }),
  getPlatformIdsFromConsoleLiveIds: async () => [],
  getPlatformIdsFromStorefrontNames: async () => [],
};
// The stub never throttles: a pacer without a rate limit of its own.
const pacer = () => new Pacer({ initialRate: 1e6, maxRate: 1e6, maxInFlight: 4 });
const anchors = new FolderAnchorStore(`${input.journal}.anchors`);
const operator = { fingerprint: 'bench', name: 'bench' };

if (input.phase === 'run') {
  // The plan as the dry run leaves it (every player to delete, its titles checked): the batch record stored whole.
  const entries = Array.from({ length: input.n }, (_, i) => ({ line: i + 1, input: hex(i), status: 'delete', platformId: hex(i), titleIds: [input.titleId] }));
  const create = { type: 'batch', version: JOURNAL_VERSION, batchId: 'scale', titleId: input.titleId, kind: 'platform-id', createdAt: new Date().toISOString(), entries };
  const journal = input.mode === 'pg'
    ? await openPgBatch({ url: input.storeUrl, operator, batchId: 'scale', secret: input.secretKey, titleId: input.titleId, create })
    : await Journal.open(input.journal, { key: input.secretKey, anchors, create });
  let outcomes = 0;
  // kill -9 of itself once half the players are answered: no close, no flush beyond what each record already did.
  await runBatch(stub, journal, { resendUnknown: false, pacer: pacer(), onOutcome: () => { if (++outcomes >= input.n / 2) process.kill(process.pid, 'SIGKILL'); } });
  throw new Error('the run was not killed at 50%');
} else {
  const heap0 = process.memoryUsage().heapUsed;
  const started = performance.now();
  const journal = input.mode === 'pg'
    ? await openPgBatch({ url: input.storeUrl, operator, batchId: 'scale', secret: input.secretKey, titleId: input.titleId })
    : await Journal.open(input.journal, { key: input.secretKey, anchors });
  const players = journal.players();
  const openMs = performance.now() - started;
  const heapBytes = process.memoryUsage().heapUsed - heap0;
  const rssBytes = process.memoryUsage().rss;
  const t = performance.now();
  const r = await runBatch(stub, journal, { resendUnknown: true, pacer: pacer() });
  const runMs = performance.now() - t;
  await journal.close();
  // In the team store, the sends in flight at the kill stay claimed by the killed run until their lease ends (not resent here).
  console.log(JSON.stringify({ openMs, runMs, heapBytes, rssBytes, players: players.size, queued: r.queued, held: journal.held?.size ?? 0 }));
}
