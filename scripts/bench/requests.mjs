// Issue 18's figures: a data request of 200 identifiers (100 Storefront names, 100 ConsoleLive IDs)
// over 3 titles, access and erasure, at --rate-limit 100/1 (per title and
// operation). Requests sent against the minimum (lookups by 25 in each title, one
// GetPlayedTitleList per account, one export and one erasure per account), and wall time against
// the rate-limit bound.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { control, CORE_BUNDLE, median, REPO, runChild, startEmulator } from './lib.mjs';

const THIRD_TITLE = 'B3E7';

/** The bench seed, with a third title (of its publisher, its own key and notification address) if it has two. */
export function seedFile(dir) {
  const seed = JSON.parse(readFileSync(join(REPO, 'src', 'emulator', 'seeds', 'bench.json'), 'utf8'));
  delete seed.$schema;
  if (seed.titles.length < 3) seed.titles.push({ ...seed.titles[0], titleId: THIRD_TITLE, name: 'Demo Racer Rally', notificationEmail: 'privacy@demo-racer-rally.example', launcher: { ...seed.titles[0].launcher, audience: `platform-title-${THIRD_TITLE}` } });
  const path = join(dir, 'seed.json');
  writeFileSync(path, JSON.stringify(seed));
  return path;
}

export async function measureRequests({ quick, row }) {
  const n = 200;
  const limit = 100;
  const repeats = quick ? 1 : 3;
  const dir = mkdtempSync(join(tmpdir(), 'pe-bench-req-'));
  // startEmulator registers the emulator's control token for control() (its routes need it).
  const s = await startEmulator({ seed: seedFile(dir), args: ['--rate-limit', `${limit}/1`, '--deletion-delay', '600000'] });
  const { origin } = s;
  const titles = s.info.titles.map((t) => t.titleId).slice(0, 3);
  const keys = Object.fromEntries(s.info.titles.map((t) => [t.titleId, t.secretKey]));
  try {
    const runs = [];
    for (let i = 0; i < repeats; i++) {
      await control(origin, 'reset', {});
      await control(origin, 'stats/reset', {});
      const r = await runChild('requests-client.mjs', { core: CORE_BUNDLE, n, endpoint: s.info.endpoint, titles, keys, store: join(dir, `store-${i}`) }, { timeoutMs: 180_000 });
      const stats = await control(origin, 'stats');
      runs.push({ ...r, requests: stats.requests, throttled: stats.throttled });
    }
    const lookupsPerTitle = Math.ceil(n / 2 / 25) * 2;
    const minimum = {
      'Server/GetPlatformIDsFromStorefrontNames': titles.length * Math.ceil(n / 2 / 25),
      'Server/GetPlatformIDsFromConsoleLiveIDs': titles.length * Math.ceil(n / 2 / 25),
      'Admin/GetPlayedTitleList': n, 'Admin/ExportMasterPlayerData': n, 'Admin/DeleteMasterPlayerAccount': n,
    };
    const min = Object.values(minimum).reduce((a, b) => a + b, 0);
    // Accepted requests (each operation's count less its throttled answers) against the minimum.
    const accepted = (r) => Object.values(r.requests).reduce((a, b) => a + b, 0) - r.throttled;
    const extra = (r) => Object.entries(minimum).filter(([op, m]) => (r.requests[op] ?? 0) < m).length;
    // Phases run one after another (lookups, GetPlayedTitleList, exports, erasures; the titles in
    // parallel); a phase of k requests of one operation and title takes at least k/limit s, and one
    // whole-second Retry-After when it goes over the limit (as the deletion section's bound).
    const phase = (k) => (k / limit) * 1000 + (k > limit ? 1000 : 0);
    const bound = phase(lookupsPerTitle / 2) + phase(n) + phase(n) + phase(n);
    const wall = median(runs.map((r) => r.wallMs));
    const sec = `Data request: ${n} identifiers (Storefront, ConsoleLive) over ${titles.length} titles, access + erasure, --rate-limit ${limit}/1 (median of ${repeats})`;
    row(sec, 'requests accepted vs the minimum (lookups by 25 per title, GetPlayedTitleList, export, erasure per account)', median(runs.map(accepted)), min, median(runs.map(accepted)) / min, '= 1', runs.every((r) => accepted(r) === min && extra(r) === 0), 'req');
    row(sec, 'throttled answers (worst run)', Math.max(...runs.map((r) => r.throttled)), min, Math.max(...runs.map((r) => r.throttled)) / min, 'info', undefined, 'req');
    row(sec, 'wall time / bound (each phase k/limit s + one 1 s Retry-After when over the limit)', wall, bound, wall / bound, '<= 1.10', wall / bound <= 1.1, 'ms');
    row(sec, 'phases: resolve / exports / erasures (median)', `${Math.round(median(runs.map((r) => r.resolveMs)))} / ${Math.round(median(runs.map((r) => r.exportMs)))} / ${Math.round(median(runs.map((r) => r.erasureMs)))}`, '-', '-', 'info', undefined, 'ms');
    return { n, limit, titles, minimum, bound, runs };
  } finally {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
