// One operator of the team store in a process of its own (issue 33's benchmark): works each of its
// data requests in turn, as `request run --store postgres --dry-run` then `request run`: the dry
// run (lookups, GetPlayedTitleList), then the erasures, each send claimed in the store first.
// Input (argv[2], JSON): {core, storeUrl, operator, ids, endpoint, keys, anchors}
// Output (last stdout line, JSON): {wallMs, requests, erasures}
import { createRequire } from 'node:module';
import { requestServices } from './request-services.mjs';

const input = JSON.parse(process.argv[2]);
const core = createRequire(import.meta.url)(input.core);
const anchors = new core.FolderAnchorStore(input.anchors);
const { services, senders, close } = requestServices(core, input, anchors);
const operator = { fingerprint: `bench-${input.operator}`, name: input.operator };
const store = await core.PgRequestStore.open({ url: input.storeUrl, operator, auth: { key: (t) => Promise.resolve(input.keys[t]), anchors } });
const started = performance.now();
let erasures = 0;
try {
  for (const id of input.ids) {
    const d = await core.dryRun(store, id, services);
    const r = await core.runActions(store, id, senders, { confirm: d.confirm });
    const queued = r.request.actions.filter((a) => a.kind === 'erasure' && a.status === 'queued').length;
    if (queued !== d.accounts.length) throw new Error(`request ${id}: ${queued} of ${d.accounts.length} erasures queued`);
    erasures += queued;
  }
} finally {
  await close();
  await store.close();
}
console.log(JSON.stringify({ wallMs: performance.now() - started, requests: input.ids.length, erasures }));
