// Issue 33's figures: a batch of deletions with the team store (PostgreSQL, a server of the bench's
// own on loopback) next to the file journal, in the same run against the same emulator: at the
// service's rate limit (the target: the store costs at most 10%), and without one (the store's own
// cost per send, for information).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { control, CORE_BUNDLE, median, runChild, startEmulator } from './lib.mjs';

export async function measureStore({ quick, row }) {
  const { TestPostgres, initStore } = createRequire(import.meta.url)(CORE_BUNDLE);
  const n = quick ? 200 : 500;
  const repeats = quick ? 1 : 3;
  // fsync on: each commit is on disk, as the file journal's lines are.
  const pg = await TestPostgres.start({ durable: true });
  const dir = mkdtempSync(join(tmpdir(), 'pe-bench-store-'));
  const out = {};
  try {
    for (const limit of [100, 100_000]) {
      // startEmulator registers the emulator's control token for control().
      const s = await startEmulator({ args: ['--rate-limit', `${limit}/1`, '--deletion-delay', '600000'] });
      try {
        const { endpoint, origin } = s;
        const title = { titleId: s.titleId, secretKey: s.secretKey };
        const batch = async (mode, i) => {
          await control(origin, 'reset', {});
          // A database per batch: the players another batch queued are not sent again.
          const storeUrl = mode === 'pg' ? await pg.freshDatabase(`bench_${limit}_${i}`) : undefined;
          if (storeUrl !== undefined) await initStore(storeUrl);
          const r = await runChild('deletion-client.mjs', {
            core: CORE_BUNDLE, mode, n, endpoint, titleId: title.titleId, secretKey: title.secretKey, journal: join(dir, `${mode}-${limit}-${i}.jsonl`), storeUrl,
          }, { timeoutMs: 180_000 });
          if (r.queued !== n) throw new Error(`${mode}: ${r.queued} queued; expected ${n}`);
          return r;
        };
        const file = [];
        const store = [];
        for (let i = 0; i < repeats; i++) {
          file.push(await batch('ours', i));
          store.push(await batch('pg', i));
        }
        const a = median(store.map((r) => r.wallMs));
        const b = median(file.map((r) => r.wallMs));
        const limited = limit === 100;
        const sec = `Team store: ${n} deletions, PostgreSQL store vs file journal (median of ${repeats}); ${limited ? `--rate-limit ${limit}/1` : 'no rate limit'}`;
        row(sec, 'wall time, PostgreSQL / file journal', a, b, a / b, limited ? '<= 1.10' : 'info', limited ? a / b <= 1.1 : undefined, 'ms');
        out[limit] = { file, store };
      } finally {
        await s.stop();
      }
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    pg.dispose();
  }
}
