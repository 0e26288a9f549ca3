// Issue 33's data-request figures on the team store (PostgreSQL, a server of the bench's own on
// loopback, fsync on), each against a baseline of the same run:
// 1. issue 18's data request (200 identifiers over 3 titles, access + erasure, --rate-limit 100/1)
//    with its state and journals in the team store vs the folder store (target: at most 10% slower);
// 2. 40 data requests (5 Storefront names each, erasure) worked by 4 operators at once (4 processes,
//    10 requests each, one database) vs by 1, against a tight rate limit: the throughput is the
//    service's limit, not the store's (erasures accepted per second vs the limit, and the same
//    work without a limit: the store's own ceiling).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { control, CORE_BUNDLE, median, runChild, startEmulator } from './lib.mjs';
import { seedFile } from './requests.mjs';

const OPERATOR_REQUESTS = 40;
const PER_REQUEST = 5;
const OPERATOR_LIMIT = 10;

/** Row 1: the same request in the folder store and in the team store, alternated. */
async function oneRequest({ quick, row, pg, initStore, dir }) {
  const n = 200;
  const limit = 100;
  // Alternated, 3 of each even with --quick: one sample each is noise on a loaded machine.
  const repeats = quick ? 3 : 5;
  const s = await startEmulator({ seed: seedFile(dir), args: ['--rate-limit', `${limit}/1`, '--deletion-delay', '600000'] });
  try {
    const titles = s.info.titles.map((t) => t.titleId).slice(0, 3);
    const keys = Object.fromEntries(s.info.titles.map((t) => [t.titleId, t.secretKey]));
    const once = async (mode, i) => {
      await control(s.origin, 'reset', {});
      const storeUrl = mode === 'pg' ? await pg.freshDatabase(`req_${i}`) : undefined;
      if (storeUrl !== undefined) await initStore(storeUrl);
      return runChild('requests-client.mjs', { core: CORE_BUNDLE, n, endpoint: s.info.endpoint, titles, keys, store: join(dir, `${mode}-${i}`), storeUrl }, { timeoutMs: 300_000 });
    };
    const folder = [];
    const store = [];
    // Each store goes first in every other pair: the machine's load drifts within a run.
    for (let i = 0; i < repeats; i++) {
      if (i % 2 === 1) store.push(await once('pg', i));
      folder.push(await once('folder', i));
      if (i % 2 === 0) store.push(await once('pg', i));
    }
    const a = median(store.map((r) => r.wallMs));
    const b = median(folder.map((r) => r.wallMs));
    const sec = `Team store: a data request of ${n} identifiers over ${titles.length} titles, access + erasure, --rate-limit ${limit}/1, PostgreSQL vs folder store (median of ${repeats})`;
    row(sec, 'wall time (dry run, exports, erasures), PostgreSQL / folder store', a, b, a / b, '<= 1.10', a / b <= 1.1, 'ms');
    const phases = (rs) => ['resolveMs', 'exportMs', 'erasureMs'].map((k) => Math.round(median(rs.map((r) => r[k])))).join(' / ');
    row(sec, 'phases: resolve / exports / erasures (median)', phases(store), phases(folder), '-', 'info', undefined, 'ms');
    return { n, limit, folder, store };
  } finally {
    await s.stop();
  }
}

/** Row 2: 40 requests in one store, worked by `operators` processes at once; the emulator's counts. */
async function operatorsRun({ s, pg, initStore, PgRequestStore, FolderAnchorStore, createRequest, benchStorefrontName, dir, operators, limit }) {
  await control(s.origin, 'reset', {});
  await control(s.origin, 'stats/reset', {});
  const url = await pg.freshDatabase(`ops_${limit}_${operators}`);
  await initStore(url);
  const keys = { [s.titleId]: s.secretKey };
  const anchors = join(dir, `ops-${limit}-${operators}-anchors`);
  // The queue: made before the clock starts (as a team's requests arrive before they are worked).
  const maker = await PgRequestStore.open({ url, operator: { fingerprint: 'bench-intake', name: 'intake' }, auth: { key: (t) => Promise.resolve(keys[t]), anchors: new FolderAnchorStore(anchors) } });
  const ids = [];
  try {
    for (let i = 0; i < OPERATOR_REQUESTS; i++) {
      const identifiers = Array.from({ length: PER_REQUEST }, (_, j) => ({ kind: 'storefront', value: benchStorefrontName(2 * (i * PER_REQUEST + j)) }));
      ids.push((await createRequest(maker, { reference: `OPS-${i}`, asks: ['erasure'], identifiers, titles: [s.titleId], endpoint: s.endpoint })).id);
    }
  } finally {
    await maker.close();
  }
  const started = performance.now();
  const results = await Promise.all(Array.from({ length: operators }, (_, k) => runChild('requests-operator.mjs', {
    core: CORE_BUNDLE, storeUrl: url, operator: `op-${k + 1}`, ids: ids.filter((_, i) => i % operators === k), endpoint: s.endpoint, keys, anchors,
  }, { timeoutMs: 300_000 })));
  const wallMs = performance.now() - started;
  const stats = await control(s.origin, 'stats');
  const erasures = results.reduce((a, r) => a + r.erasures, 0);
  if (erasures !== OPERATOR_REQUESTS * PER_REQUEST) throw new Error(`${operators} operators: ${erasures} erasures queued; expected ${OPERATOR_REQUESTS * PER_REQUEST}`);
  const sent = stats.requests['Admin/DeleteMasterPlayerAccount'] ?? 0;
  return { operators, wallMs, erasures, sent, throttled: stats.throttled, requests: stats.requests };
}

export async function measureRequestsStore({ quick, row }) {
  const core = createRequire(import.meta.url)(CORE_BUNDLE);
  const pg = await core.TestPostgres.start({ durable: true });
  const dir = mkdtempSync(join(tmpdir(), 'pe-bench-reqstore-'));
  try {
    const one = await oneRequest({ quick, row, pg, initStore: core.initStore, dir });
    // At the limit, then without one (100,000/s): the store's own ceiling for the same work.
    const byLimit = {};
    for (const limit of [OPERATOR_LIMIT, 100_000]) {
      const s = await startEmulator({ args: ['--rate-limit', `${limit}/1`, '--deletion-delay', '600000'] });
      try {
        byLimit[limit] = [];
        for (const operators of [1, 4]) byLimit[limit].push(await operatorsRun({ ...core, s, pg, dir, operators, limit }));
      } finally {
        await s.stop();
      }
    }
    const [single, four] = byLimit[OPERATOR_LIMIT];
    const [freeSingle, freeFour] = byLimit[100_000];
    const rate = (r) => r.erasures / (r.wallMs / 1000);
    const sec = `Team store: ${OPERATOR_REQUESTS} data requests (${PER_REQUEST} Storefront names each, erasure, one title), 4 operators (processes, ${OPERATOR_REQUESTS / 4} requests each, one database) vs 1; --rate-limit ${OPERATOR_LIMIT}/1, and without a limit`;
    row(sec, `erasures accepted per second (the whole wall: dry runs and erasures) at ${OPERATOR_LIMIT}/s, 4 operators vs 1`, rate(four), rate(single), rate(four) / rate(single), 'info', undefined, '/s');
    row(sec, `the same / the rate limit (${OPERATOR_LIMIT}/s): 4 operators; 1 operator`, `${rate(four).toFixed(2)}; ${rate(single).toFixed(2)}`, OPERATOR_LIMIT, `${(rate(four) / OPERATOR_LIMIT).toFixed(2)}; ${(rate(single) / OPERATOR_LIMIT).toFixed(2)}`, 'info', undefined, '/s');
    row(sec, 'no rate limit (the store\'s own ceiling): erasures per second, 4 operators vs 1', rate(freeFour), rate(freeSingle), rate(freeFour) / rate(freeSingle), 'info', undefined, '/s');
    // One operator works its requests one after another (round trips, each claim committed), so its
    // own pace is the bound there; 4 operators on one database show what the store can carry.
    row(sec, `the store's ceiling (4 operators, no limit) / the rate limit: above 1, the service is the bound, not the store`, rate(freeFour), OPERATOR_LIMIT, rate(freeFour) / OPERATOR_LIMIT, '>= 1', rate(freeFour) / OPERATOR_LIMIT >= 1, '/s');
    row(sec, `wall time at ${OPERATOR_LIMIT}/s, 4 operators / 1 operator`, four.wallMs, single.wallMs, four.wallMs / single.wallMs, 'info', undefined, 'ms');
    row(sec, `erasures sent (all throttled answers) at ${OPERATOR_LIMIT}/s, 4 operators; 1 operator`, `${four.sent} (${four.throttled}); ${single.sent} (${single.throttled})`, OPERATOR_REQUESTS * PER_REQUEST, '-', 'info', undefined, 'req');
    return { one, operators: byLimit };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    pg.dispose();
  }
}
