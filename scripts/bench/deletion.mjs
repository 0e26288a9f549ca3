// Issue 11's figures: 500 deletions against the emulator at --rate-limit 100/1, the product's
// paced runner next to a fixed concurrency-8 sender in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { control, CORE_BUNDLE, median, runChild, startEmulator } from './lib.mjs';

const OPERATION = 'Admin/DeleteMasterPlayerAccount';

export async function measureDeletion({ quick, row }) {
  const n = quick ? 200 : 500;
  const limit = 100;
  const repeats = quick ? 1 : 3;
  // startEmulator registers the emulator's control token for control() (its routes need it).
  const s = await startEmulator({ args: ['--rate-limit', `${limit}/1`, '--deletion-delay', '600000'] });
  const { endpoint, origin } = s;
  const title = { titleId: s.titleId, secretKey: s.secretKey };
  const dir = mkdtempSync(join(tmpdir(), 'pe-bench-del-'));
  try {
    const batch = async (mode, i) => {
      await control(origin, 'reset', {});
      const r = await runChild('deletion-client.mjs', {
        core: CORE_BUNDLE, mode, n, endpoint, titleId: title.titleId, secretKey: title.secretKey, journal: join(dir, `${mode}-${i}.jsonl`),
      }, { timeoutMs: 120_000 });
      const stats = await control(origin, 'stats');
      const jobs = (await control(origin, 'jobs')).jobs.length;
      if (r.queued !== n || jobs !== n) throw new Error(`${mode}: ${r.queued} queued, ${jobs} jobs; expected ${n}`);
      return { ...r, requests: stats.requests[OPERATION] ?? 0, throttled: stats.throttled };
    };
    const ours = [];
    const fixed = [];
    for (let i = 0; i < repeats; i++) {
      ours.push(await batch('ours', i));
      fixed.push(await batch('fixed8', i));
    }
    // The service's Retry-After is whole seconds: a client that must find the limit by hitting it
    // waits one whole second once, whatever it does. The bound counts that second.
    const bound = (n / limit) * 1000 + 1000;
    const wall = median(ours.map((r) => r.wallMs));
    const fixedWall = median(fixed.map((r) => r.wallMs));
    const share = (r) => r.throttled / r.requests;
    const worstShare = Math.max(...ours.map(share));
    const sec = `Deletions: ${n} players at --rate-limit ${limit}/1 (median of ${repeats}); baseline: 8 senders, Retry-After per request`;
    row(sec, `wall time / bound (${n}/${limit} s + one 1 s Retry-After)`, wall, bound, wall / bound, '<= 1.10', wall / bound <= 1.1, 'ms');
    row(sec, 'wall time next to the fixed concurrency-8 sender', wall, fixedWall, wall / fixedWall, 'info', undefined, 'ms');
    row(sec, 'throttled answers / requests (worst run; baseline: its median)', worstShare * 100, median(fixed.map(share)) * 100, worstShare / Math.max(1e-9, median(fixed.map(share))), '<= 2%', worstShare <= 0.02, '%');
    row(sec, 'requests sent per player', median(ours.map((r) => r.requests)) / n, median(fixed.map((r) => r.requests)) / n, '-', 'info', undefined, '');
    return { n, limit, ours, fixed };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await s.stop();
  }
}
