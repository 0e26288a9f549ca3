// One data request in a process of its own (issue 18's benchmark): new, dry run (resolution),
// run (exports), the export links recorded, run (erasures), timed phase by phase.
// Input (argv[2], JSON): {core, n, endpoint, titles, keys, store}
// Output (last stdout line, JSON): {wallMs, resolveMs, exportMs, erasureMs, accounts}
import { createRequire } from 'node:module';

const input = JSON.parse(process.argv[2]);
const { FolderAnchorStore, PlatformClient, RequestStore, createRequest, dryRun, runActions, recordExportLink, benchStorefrontName, benchConsoleLiveId } = createRequire(import.meta.url)(input.core);

const half = input.n / 2;
// Even n are linked in the bench seed: Storefront names of players 0..2(half-1), ConsoleLive IDs of the next half.
const identifiers = [
  ...Array.from({ length: half }, (_, i) => ({ kind: 'storefront', value: benchStorefrontName(2 * i) })),
  ...Array.from({ length: half }, (_, i) => ({ kind: 'consolelive', value: benchConsoleLiveId(2 * (half + i)), sandbox: 'RETAIL' })),
];
const clients = new Map();
const anchors = new FolderAnchorStore(`${input.store}-anchors`);
/** As the CLI: lookups with the client's retries; sends without (the journal and pacer decide). */
const servicesWith = (maxRetries) => ({
  client: (t) => {
    const k = `${t} ${maxRetries}`;
    if (!clients.has(k)) clients.set(k, new PlatformClient({ titleId: t, endpoint: input.endpoint, getSecretKey: () => Promise.resolve(input.keys[t]), maxRetries }));
    return clients.get(k);
  },
  key: (t) => Promise.resolve(input.keys[t]),
  anchors,
});
const services = servicesWith(undefined);
const senders = servicesWith(0);
// State files are sealed with the titles' keys and anchored with the journals (issue 29).
const store = await RequestStore.open(input.store, { auth: { key: (t) => Promise.resolve(input.keys[t]), anchors } });
const r = await createRequest(store, { reference: 'BENCH', asks: ['access', 'erasure'], identifiers, titles: input.titles, endpoint: input.endpoint });
const t0 = performance.now();
const d = await dryRun(store, r.id, services);
const t1 = performance.now();
const run1 = await runActions(store, r.id, senders, { confirm: d.confirm });
const t2 = performance.now();
for (const a of run1.request.actions) {
  if (a.kind === 'export' && a.jobReceiptId !== undefined) await recordExportLink(store, r.id, a.jobReceiptId, `https://downloads.example/${a.jobReceiptId}`);
}
const t3 = performance.now();
const run2 = await runActions(store, r.id, senders, { confirm: d.confirm });
const t4 = performance.now();
await Promise.all([...clients.values()].map((c) => c.close()));
const erased = run2.request.actions.filter((a) => a.kind === 'erasure' && a.status === 'queued').length;
if (d.accounts.length !== input.n || erased !== input.n) throw new Error(`${d.accounts.length} accounts, ${erased} erasures queued; expected ${input.n}`);
console.log(JSON.stringify({ wallMs: (t1 - t0) + (t2 - t1) + (t4 - t3), resolveMs: t1 - t0, exportMs: t2 - t1, erasureMs: t4 - t3, accounts: d.accounts.length }));
