// Shared pieces of `npm run bench`: the bench bundle of src/core, child processes that report
// one JSON line, the emulator in its own process, and its /_emulator/ controls.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const { Agent, fetch: undiciFetch } = createRequire(import.meta.url)('undici');

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RESULTS = join(REPO, 'bench-results');
export const CORE_BUNDLE = join(RESULTS, '.build', 'bench-core.cjs');
const HOST = '127.0.0.1';

/** Bundles what the bench children need from src/ (the real code, unminified) into one file. */
export async function buildBenchBundle() {
  mkdirSync(dirname(CORE_BUNDLE), { recursive: true });
  await esbuild.build({
    stdin: {
      contents: [
        "export { PlatformClient, BULK_CONCURRENCY, findPlatformIds, platformIdAt, redactText } from './src/core/index';",
        "export { seededRandom } from './src/core/seededRandom';",
        "export { FolderAnchorStore, Journal, JOURNAL_VERSION, Pacer, runBatch } from './src/core/deletion/index';",
        "export { RequestStore, createRequest, dryRun, runActions, recordExportLink } from './src/core/requests/index';",
        "export { BENCH_PLAYER_COUNT, benchStorefrontName, benchConsoleLiveId, DEMO_TITLES } from './src/emulator/seed';",
        "export { startTinyproxy } from './test/unit/helpers/tinyproxy';",
        "export { initStore, openPgBatch, PgRequestStore } from './src/core/store/index';",
        "export { TestPostgres } from './test/unit/helpers/postgres';",
        "export { fill, sampleShapes } from './test/unit/fuzz/tokenShapes';",
      ].join('\n'),
      resolveDir: REPO,
      loader: 'ts',
    },
    bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile: CORE_BUNDLE, logLevel: 'warning',
  });
}

/** Every child this run started, so a failure or Ctrl+C still stops them all. */
const children = new Set();

export function stopAll() {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  }
}

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    stopAll();
    process.exit(130);
  });
}

function track(child) {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

/** `taskset -c <cpu>` prefix when a core is asked for (one core per process under load). */
function command(args, cpu) {
  return cpu === undefined ? [process.execPath, args] : ['taskset', ['-c', String(cpu), process.execPath, ...args]];
}

/**
 * Runs `node <script> <json>` and resolves with the JSON object of its last stdout line.
 * A time limit ends it (the whole bench must stay bounded).
 */
export function runChild(script, input, { cpu, nodeArgs = [], timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const [cmd, args] = command([...nodeArgs, join(REPO, 'scripts', 'bench', script), JSON.stringify(input)], cpu);
    const child = track(spawn(cmd, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] }));
    let out = '';
    child.stdout.on('data', (c) => { out += c; });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not finish within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('exit', (code) => {
      clearTimeout(timer);
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) {
        reject(new Error(`${script} exited with ${code}: ${last}`));
        return;
      }
      try {
        resolve(JSON.parse(last));
      } catch {
        reject(new Error(`${script} printed no JSON result: ${last}`));
      }
    });
  });
}

/** Starts a server process whose first stdout line is JSON (`node dist/emulator.js --json`, bare-server.mjs). */
export function startServer(args, { cpu, label }) {
  return new Promise((resolve, reject) => {
    const [cmd, argv] = command(args, cpu);
    const child = track(spawn(cmd, argv, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] }));
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${label} did not start within 20 s: ${err}`));
    }, 20_000);
    child.stderr.on('data', (c) => { err += c; });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited (${code}) before it was ready: ${err}`));
    });
    const onData = (c) => {
      out += c;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      child.stdout.off('data', onData);
      child.stdout.resume();
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const info = JSON.parse(out.slice(0, nl));
      resolve({
        info,
        pid: child.pid,
        stop: () => new Promise((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
          child.once('exit', () => { clearTimeout(kill); done(); });
          child.kill('SIGTERM');
        }),
      });
    };
    child.stdout.on('data', onData);
  });
}

/** The emulator bundle in its own process on 127.0.0.1 with the bench seed (`tls`: HTTPS, its certificate trusted by control()). */
export async function startEmulator({ cpu, tls = false, seed = 'bench', args = [] } = {}) {
  const s = await startServer([join(REPO, 'dist', 'emulator.js'), '--json', '--seed', seed, '--host', HOST, ...(tls ? ['--tls'] : []), ...args], { cpu, label: 'emulator' });
  const endpoint = s.info.endpoint;
  const origin = new URL(endpoint.replace('{titleId}', 'x')).origin;
  const title = s.info.titles[0];
  if (s.info.caCertificate) trustedOrigins.set(origin, new Agent({ connect: { ca: s.info.caCertificate } }));
  if (s.info.controlToken) controlTokens.set(origin, s.info.controlToken);
  return { ...s, endpoint, origin, titleId: title.titleId, secretKey: title.secretKey, caCertificate: s.info.caCertificate };
}

/** Dispatchers that trust the certificate of a --tls emulator, by origin. */
const trustedOrigins = new Map();
/** The control tokens of the emulators started here (their --json lines), by origin. */
const controlTokens = new Map();

/** One /_emulator/ control call; throws on a non-200 answer. */
export async function control(origin, path, body) {
  const dispatcher = trustedOrigins.get(origin);
  const token = controlTokens.get(origin);
  const res = await (dispatcher ? undiciFetch : fetch)(`${origin}/_emulator/${path}`, {
    ...(dispatcher ? { dispatcher } : {}),
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`/_emulator/${path} answered ${res.status}: ${text}`);
  return JSON.parse(text);
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function median(xs) {
  return percentile([...xs].sort((a, b) => a - b), 50);
}
