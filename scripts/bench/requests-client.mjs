// One data request in a process of its own (issue 18's benchmark): new, dry run (resolution),
// run (exports), the export links recorded, run (erasures), timed phase by phase.
// Input (argv[2], JSON): {core, n, endpoint, titles, keys, store, storeUrl?}
//   storeUrl: the request in the team store (PostgreSQL) at that URL, as `--store postgres`;
//   else in the folder `store`, as the CLI's default.
// Output (last stdout line, JSON): {wallMs, resolveMs, exportMs, erasureMs, accounts}
import { createRequire } from 'node:module';
import { requestServices } from './request-services.mjs';

const input = JSON.parse(process.argv[2]);
const core = createRequire(import.meta.url)(input.core);
const { FolderAnchorStore, PgRequestStore, RequestStore, createRequest, dryRun, runActions, recordExportLink, benchStorefrontName, benchConsoleLiveId } = core;

const half = input.n / 2;
// Even n are linked in the bench seed: Storefront names of players 0..2(half-1), ConsoleLive IDs of the next half.
const identifiers = [
  ...Array.from({ length: half }, (_, i) => ({ kind: 'storefront', value: benchStorefrontName(2 * i) })),
  ...Array.from({ length: half }, (_, i) => ({ kind: 'consolelive', value: benchConsoleLiveId(2 * (half + i)), sandbox: 'RETAIL' })),
];
const anchors = new FolderAnchorStore(`${input.store}-anchors`);
const { services, senders, close } = requestServices(core, input, anchors);
// State files are sealed with the titles' keys and anchored with the journals (issue 29).
const auth = { key: (t) => Promise.resolve(input.keys[t]), anchors };
const store = input.storeUrl === undefined
  ? await RequestStore.open(input.store, { auth })
  : await PgRequestStore.open({ url: input.storeUrl, operator: { fingerprint: 'bench', name: 'bench' }, auth });
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
await close();
if (input.storeUrl !== undefined) await store.close();
const erased = run2.request.actions.filter((a) => a.kind === 'erasure' && a.status === 'queued').length;
if (d.accounts.length !== input.n || erased !== input.n) throw new Error(`${d.accounts.length} accounts, ${erased} erasures queued; expected ${input.n}`);
console.log(JSON.stringify({ wallMs: (t1 - t0) + (t2 - t1) + (t4 - t3), resolveMs: t1 - t0, exportMs: t2 - t1, erasureMs: t4 - t3, accounts: d.accounts.length }));
