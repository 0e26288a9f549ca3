// One batch of deletions in a process of its own (issue 11's benchmark).
// Input (argv[2], JSON): {core, mode: 'ours'|'pg'|'fixed8', n, endpoint, titleId, secretKey, journal, storeUrl}
//   ours: the product's runner (AIMD pacer, journal synced before and after each send);
//   pg: the same runner with the batch in the team store at storeUrl (each send claimed there first);
//   fixed8: 8 senders in parallel, each honouring Retry-After through the client's retries.
// Output (last stdout line, JSON): {wallMs, queued, failed}
import { createRequire } from 'node:module';

const input = JSON.parse(process.argv[2]);
const { PlatformClient, FolderAnchorStore, Journal, JOURNAL_VERSION, runBatch, benchStorefrontName, openPgBatch } = createRequire(import.meta.url)(input.core);
const options = { titleId: input.titleId, endpoint: input.endpoint, getSecretKey: () => Promise.resolve(input.secretKey) };

// The players: the bench seed links even Storefront names (resolved before the clock starts).
const lookup = new PlatformClient(options);
const names = Array.from({ length: input.n }, (_, i) => benchStorefrontName(2 * i));
const ids = (await lookup.getPlatformIdsFromStorefrontNames(names)).map((p) => p.PlatformId);
await lookup.close();
if (ids.some((id) => id === null)) throw new Error('the bench seed did not link every even Storefront name');

let result;
if (input.mode === 'ours' || input.mode === 'pg') {
  const entries = ids.map((platformId, i) => ({ line: i + 1, input: platformId, status: 'delete', platformId, titleIds: [] }));
  const create = { type: 'batch', version: JOURNAL_VERSION, batchId: 'bench', titleId: input.titleId, kind: 'platform-id', createdAt: new Date().toISOString(), entries };
  const journal = input.mode === 'pg'
    ? await openPgBatch({ url: input.storeUrl, operator: { fingerprint: 'bench', name: 'bench' }, batchId: 'bench', secret: input.secretKey, titleId: input.titleId, create })
    : await Journal.open(input.journal, {
      key: input.secretKey,
      // Beside the journal: the bench's journals are made for one run.
      anchors: new FolderAnchorStore(`${input.journal}.anchors`),
      create,
    });
  const client = new PlatformClient({ ...options, maxRetries: 0 });
  const started = performance.now();
  const r = await runBatch(client, journal, { resendUnknown: false });
  result = { wallMs: performance.now() - started, queued: r.queued, failed: r.failed + r.unknown + r.pending };
  await client.close();
  await journal.close();
} else {
  const client = new PlatformClient({ ...options, maxRetries: 10, concurrency: 8 });
  let next = 0;
  let queued = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < ids.length) {
      const platformId = ids[next++];
      try {
        await client.deleteMasterPlayerAccount({ PlatformId: platformId });
        queued++;
      } catch {
        failed++;
      }
    }
  }));
  result = { wallMs: performance.now() - started, queued, failed };
  await client.close();
}
console.log(JSON.stringify(result));
