// Issue 33's scale rows, both stores: a batch of 100,000 players planned and journaled (the file
// journal, or the team store on a PostgreSQL of the bench's own with fsync on), the process killed
// -9 by itself at 50%, then resumed. Rows: the resume (open and replay, before the first send),
// memory per player after it, and the whole at 100,000 over the whole at 50,000 (about 2 when no
// step is quadratic). scale-client.mjs says why the service there is a stub.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORE_BUNDLE, REPO, runChild } from './lib.mjs';

/** The run phase: ends by its own kill -9 (anything else is a failure); its wall time. */
function runUntilKilled(input, timeoutMs) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [join(REPO, 'scripts', 'bench', 'scale-client.mjs'), JSON.stringify(input)], { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => { err += c; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL' && performance.now() - started < timeoutMs) resolve(performance.now() - started);
      else reject(new Error(`scale-client (run) ended with ${signal ?? code}, not its own kill at 50%: ${err.slice(-500)}`));
    });
  });
}

export async function measureScale({ quick, row }) {
  const { TestPostgres, initStore } = createRequire(import.meta.url)(CORE_BUNDLE);
  const full = quick ? 10_000 : 100_000;
  const pg = await TestPostgres.start({ durable: true });
  const dir = mkdtempSync(join(tmpdir(), 'pe-bench-scale-'));
  const out = {};
  try {
    for (const mode of ['file', 'pg']) {
      const at = {};
      for (const n of [full / 2, full]) {
        const storeUrl = mode === 'pg' ? await pg.freshDatabase(`scale_${n}`) : undefined;
        if (storeUrl !== undefined) await initStore(storeUrl);
        const input = { core: CORE_BUNDLE, mode, n, journal: join(dir, `${mode}-${n}.jsonl`), storeUrl, secretKey: 'bench-scale-key', titleId: 'F71AC' };
        const runMs = await runUntilKilled({ ...input, phase: 'run' }, 1_800_000);
        const r = await runChild('scale-client.mjs', { ...input, phase: 'resume' }, { timeoutMs: 1_800_000 });
        if (r.players !== n || r.queued + r.held !== n || r.held > 4) throw new Error(`${mode} ${n}: ${r.queued} of ${r.players} queued after the resume (${r.held} held by the killed run's live leases); expected ${n}`);
        at[n] = { runMs, ...r, totalMs: runMs + r.openMs + r.runMs };
      }
      const big = at[full];
      const half = at[full / 2];
      const label = mode === 'pg' ? 'team store (PostgreSQL)' : 'file journal';
      const sec = `Scale: ${full.toLocaleString('en-US')} players, ${label}, kill -9 at 50% then resumed`;
      row(sec, 'resume: open and replay before the first send', big.openMs, undefined, undefined, '< 3000', big.openMs < 3000, 'ms');
      row(sec, 'memory per player after the resume (heap)', big.heapBytes / full, undefined, undefined, 'info', undefined, 'B');
      row(sec, `whole (run to 50%, resume, the rest): ${full.toLocaleString('en-US')} / ${(full / 2).toLocaleString('en-US')} players`, big.totalMs, half.totalMs, big.totalMs / half.totalMs, '~2 (< 3)', big.totalMs / half.totalMs < 3, 'ms');
      row(sec, `resume: ${full.toLocaleString('en-US')} / ${(full / 2).toLocaleString('en-US')} players`, big.openMs, half.openMs, big.openMs / half.openMs, '~2 (< 3)', big.openMs / half.openMs < 3, 'ms');
      out[mode] = at;
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    pg.dispose();
  }
}
