#!/usr/bin/env node
// `npm run bench` (after `node esbuild.mjs`): every performance figure, each next to a baseline
// measured in this same run, printed as a table and written to bench-results/bench.json.
// Loopback only; every process it starts is stopped. No test asserts on these numbers.
//
// Usage: node scripts/bench/run.mjs [--quick] [--only bulk,network,emulator,ids,redact,deletion,store,requests-store,mcp,requests,size,activation]
//   --quick  smaller inputs and fewer repeats (a smoke run of the script itself)
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { measureActivation } from './activation.mjs';
import { measureDeletion } from './deletion.mjs';
import { measureMcp } from './mcp.mjs';
import { measureRequests } from './requests.mjs';
import { buildBenchBundle, control, CORE_BUNDLE, median, REPO, RESULTS, runChild, startEmulator, startServer, stopAll } from './lib.mjs';
import { measureSizes } from './size.mjs';
import { measureStore } from './store.mjs';
import { measureRequestsStore } from './requests-store.mjs';
import { measureScale } from './scale.mjs';

const { values: opts } = parseArgs({ options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } } });
const sections = new Set((opts.only ?? 'bulk,network,emulator,ids,redact,deletion,store,requests-store,mcp,requests,size,activation').split(','));
const quick = opts.quick;

const LATENCY_MS = 25;
const IDS_PER_REQUEST = 25;
const N = quick ? 2_000 : 10_000;
const REPEATS = quick ? 1 : 3;
const SWEEP = [1, 2, 4, 8, 16, 32];
const RETRY_AFTER_S = 1;

const rows = [];
const raw = {};
const started = performance.now();

/** One table row. `pass` is true/false against the target, or undefined for information only. */
function row(section, figure, ours, baseline, ratio, target, pass, unit = '') {
  rows.push({ section, figure, ours, baseline, ratio, target, pass, unit });
}

const fmt = (v, digits = 0) => (v === undefined || v === null || Number.isNaN(v) ? '-' : typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : String(v));
const requestsFor = (n) => Math.ceil(n / IDS_PER_REQUEST);

// ---- Bulk lookups ------------------------------------------------------------------------

async function bulk() {
  const { BULK_CONCURRENCY } = createRequire(import.meta.url)(CORE_BUNDLE);
  const emu = await startEmulator();
  try {
    const lookup = async (mode, kind, concurrency) => {
      await control(emu.origin, 'stats/reset', {});
      const r = await runChild('lookup-client.mjs', {
        core: CORE_BUNDLE, mode, kind, n: N, concurrency, endpoint: emu.endpoint, titleId: emu.titleId, secretKey: emu.secretKey,
      }, { nodeArgs: ['--expose-gc'] });
      const stats = await control(emu.origin, 'stats');
      if (r.total !== N || r.linked !== N / 2 || !r.linkedAtEven) {
        throw new Error(`${mode} ${kind} lookup returned ${r.total} entries, ${r.linked} linked; expected ${N}, the ${N / 2} at even positions`);
      }
      return { ...r, requests: stats.total };
    };
    await control(emu.origin, 'faults', { latencyMs: LATENCY_MS });
    const c = BULK_CONCURRENCY;
    const bound = (conc) => (requestsFor(N) * LATENCY_MS) / conc;
    raw.bulk = { n: N, latencyMs: LATENCY_MS, defaultConcurrency: c, kinds: {} };
    for (const [kind, label] of [['storefront', 'Storefront names'], ['consoleLive', 'ConsoleLive IDs']]) {
      const runs = [];
      for (let i = 0; i < REPEATS; i++) runs.push(await lookup('ours', kind, c));
      const naive = await lookup('naive', kind);
      const floor = [];
      for (let i = 0; i < REPEATS; i++) floor.push(await lookup('raw', kind, c));
      const wall = median(runs.map((r) => r.wallMs));
      const rawWall = median(floor.map((r) => r.wallMs));
      const sec = `Bulk lookups: ${N.toLocaleString('en-US')} ${label}, half linked, ${LATENCY_MS} ms latency`;
      row(sec, `wall time / bound at default concurrency ${c} (median of ${REPEATS})`, wall, bound(c), wall / bound(c), '<= 1.15', wall / bound(c) <= 1.15, 'ms');
      row(sec, `wall time vs a bare undici pool at concurrency ${c} (this machine's floor)`, wall, rawWall, wall / rawWall, 'info', undefined, 'ms');
      row(sec, 'speed-up over naive client (sequential, new connection each)', wall, naive.wallMs, naive.wallMs / wall, '>= 6x', naive.wallMs / wall >= 6, 'ms');
      const sent = Math.max(...runs.map((r) => r.requests));
      row(sec, 'requests sent (emulator stats) vs ceil(unique/25)', sent, requestsFor(N), sent / requestsFor(N), '= 1', runs.every((r) => r.requests === requestsFor(N)), 'req');
      const growth = Math.max(...runs.map((r) => r.rssGrowthMB));
      row(sec, 'peak RSS growth of the client process (naive as baseline)', growth, naive.rssGrowthMB, growth / naive.rssGrowthMB, '< 50 MB', growth < 50, 'MB');
      const retained = Math.max(...runs.map((r) => r.retainedMB));
      row(sec, 'heap retained after GC, result still held (naive as baseline)', retained, naive.retainedMB, retained / naive.retainedMB, 'info', undefined, 'MB');
      raw.bulk.kinds[kind] = { runs, naive, floor };
    }

    // Sweep: which concurrency to default to.
    const sweepSec = `Concurrency sweep (${N.toLocaleString('en-US')} Storefront names, ${LATENCY_MS} ms latency)`;
    raw.bulk.sweep = [];
    const naiveWall = raw.bulk.kinds.storefront.naive.wallMs;
    for (const conc of quick ? [1, 8, 32] : SWEEP) {
      const r = await lookup('ours', 'storefront', conc);
      raw.bulk.sweep.push({ concurrency: conc, ...r });
      row(sweepSec, `concurrency ${conc}: wall / bound (speed-up over naive ${fmt(naiveWall / r.wallMs, 1)}x)`, r.wallMs, bound(conc), r.wallMs / bound(conc), 'info', undefined, 'ms');
    }

    // 429 + Retry-After: every request of the first wave is throttled once; a client that honours
    // Retry-After and keeps its other requests going loses about one Retry-After, no more.
    const clean = median(raw.bulk.kinds.storefront.runs.map((r) => r.wallMs));
    await control(emu.origin, 'faults', {
      latencyMs: LATENCY_MS, rules: [{ operation: 'Server/GetPlatformIDsFromStorefrontNames', kind: '429', times: c, retryAfterSeconds: RETRY_AFTER_S }],
    });
    const throttled = await lookup('ours', 'storefront', c);
    raw.bulk.throttled = throttled;
    const ideal = clean + RETRY_AFTER_S * 1000;
    const sec429 = `429 + Retry-After ${RETRY_AFTER_S} s on the first ${c} requests (Storefront names)`;
    row(sec429, 'wall time vs clean run + one Retry-After', throttled.wallMs, ideal, throttled.wallMs / ideal, '<= 1.15', throttled.wallMs / ideal <= 1.15, 'ms');
    row(sec429, 'requests sent vs ceil(unique/25) + throttled', throttled.requests, requestsFor(N) + c, throttled.requests / (requestsFor(N) + c), '= 1', throttled.requests === requestsFor(N) + c, 'req');
  } finally {
    await emu.stop();
  }
}

// ---- The network path: TLS, keep-alive, a real proxy ---------------------------------------

async function network() {
  const { BULK_CONCURRENCY, startTinyproxy } = createRequire(import.meta.url)(CORE_BUNDLE);
  const plain = await startEmulator();
  const tls = await startEmulator({ tls: true });
  // Quiet log: tinyproxy writes a line per connection at Info, which the bench need not pay for.
  const proxy = await startTinyproxy({ connectPorts: [Number(new URL(tls.origin).port)], logLevel: 'Warning' });
  try {
    const lookup = async (emu, extra) => {
      await control(emu.origin, 'stats/reset', {});
      const r = await runChild('lookup-client.mjs', {
        core: CORE_BUNDLE, mode: 'ours', kind: 'storefront', n: N, endpoint: emu.endpoint, titleId: emu.titleId, secretKey: emu.secretKey, ...extra,
      });
      const stats = await control(emu.origin, 'stats');
      if (r.total !== N || r.linked !== N / 2 || !r.linkedAtEven) throw new Error(`network lookup returned ${r.total} entries, ${r.linked} linked`);
      return { ...r, requests: stats.total, tlsHandshakes: stats.tlsHandshakes };
    };
    const modes = {
      http: () => lookup(plain, {}),
      tls: () => lookup(tls, { ca: tls.caCertificate }),
      proxy: () => lookup(tls, { ca: tls.caCertificate, proxy: proxy.url }),
    };
    raw.network = { n: N, defaultConcurrency: BULK_CONCURRENCY, latencies: {} };
    for (const latencyMs of [LATENCY_MS, 0]) {
      await control(plain.origin, 'faults', { latencyMs });
      await control(tls.origin, 'faults', { latencyMs });
      // Interleaved, so drift on a shared machine falls on every mode alike.
      const runs = { http: [], tls: [], proxy: [] };
      for (let i = 0; i < REPEATS; i++) for (const [mode, run] of Object.entries(modes)) runs[mode].push(await run());
      raw.network.latencies[latencyMs] = runs;
      const wall = (mode) => median(runs[mode].map((r) => r.wallMs));
      const target = latencyMs > 0;
      const sec = `Network path: ${N.toLocaleString('en-US')} Storefront names (${requestsFor(N)} requests) at concurrency ${BULK_CONCURRENCY}, ${latencyMs} ms latency, keep-alive, median of ${REPEATS}${target ? '' : ' (raw overhead on loopback, information)'}`;
      row(sec, 'HTTPS through tinyproxy (CONNECT tunnel) vs direct HTTPS', wall('proxy'), wall('tls'), wall('proxy') / wall('tls'), target ? '<= 1.10' : 'info', target ? wall('proxy') / wall('tls') <= 1.10 : undefined, 'ms');
      row(sec, 'HTTPS vs plain HTTP', wall('tls'), wall('http'), wall('tls') / wall('http'), target ? '<= 1.05' : 'info', target ? wall('tls') / wall('http') <= 1.05 : undefined, 'ms');
      for (const mode of ['tls', 'proxy']) {
        const most = Math.max(...runs[mode].map((r) => r.tlsHandshakes));
        const requests = Math.max(...runs[mode].map((r) => r.requests));
        row(sec, `TLS handshakes per run, ${mode === 'tls' ? 'direct' : 'through the proxy'} (${requests} requests) vs pooled connections`, most, BULK_CONCURRENCY, most / BULK_CONCURRENCY, '<= 1 per connection', most <= BULK_CONCURRENCY, '');
      }
    }
  } finally {
    await proxy.stop();
    await Promise.all([plain.stop(), tls.stop()]);
  }
}

// ---- Emulator throughput ------------------------------------------------------------------

/** User + system CPU of a process in clock ticks (Linux /proc; NaN elsewhere). */
function cpuTicks(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return NaN;
  }
}

async function emulatorLoad() {
  const { benchStorefrontName } = createRequire(import.meta.url)(CORE_BUNDLE);
  // 40 distinct request bodies of 25 names, half of them linked.
  const bodies = Array.from({ length: 40 }, (_, b) => JSON.stringify({
    StorefrontNames: Array.from({ length: IDS_PER_REQUEST }, (_, i) => benchStorefrontName(b * IDS_PER_REQUEST + i)),
  }));
  const load = { connections: 16, warmupRequests: quick ? 500 : 3_000, maxRequests: quick ? 5_000 : 60_000, maxMs: quick ? 2_000 : 5_000 };
  // Server on core 0, load generator on core 1: the server gets one core to itself.
  // The request log is on by default; `logOff` measures the same emulator with it off.
  const emulatorRun = async (logOff = false) => {
    const emu = await startEmulator({ cpu: 0, args: logOff ? ['--request-log-size', '0'] : [] });
    try {
      const cpu0 = cpuTicks(emu.pid);
      const r = await runChild('load.mjs', {
        ...load, bodies, url: `${emu.origin}/${emu.titleId}/Server/GetPlatformIDsFromStorefrontNames`,
        headers: { 'content-type': 'application/json', 'x-secretkey': emu.secretKey },
      }, { cpu: 1 });
      // CPU the emulator spent per request (10 ms ticks): less swayed by other load than requests per second.
      const cpuMicrosPerRequest = ((cpuTicks(emu.pid) - cpu0) * 10_000) / r.requests;
      const logged = (await control(emu.origin, 'requests?limit=0')).next;
      return { ...r, served: (await control(emu.origin, 'stats')).total, logged, cpuMicrosPerRequest };
    } finally {
      await emu.stop();
    }
  };
  const bareRun = async () => {
    const bare = await startServer([join(REPO, 'scripts', 'bench', 'bare-server.mjs')], { cpu: 0, label: 'bare server' });
    try {
      return await runChild('load.mjs', { ...load, bodies, url: `${bare.info.origin}/lookup`, headers: { 'content-type': 'application/json' } }, { cpu: 1 });
    } finally {
      await bare.stop();
    }
  };
  // Alternated, best of each: other work on a shared machine only ever slows a run down.
  const runs = { ours: [], baseline: [], logOff: [] };
  // Three rounds: on a shared machine one round of log-on against log-off swung from 0.55 to 1.7.
  const rounds = quick ? 1 : 3;
  for (let i = 0; i < rounds; i++) {
    runs.ours.push(await emulatorRun());
    runs.logOff.push(await emulatorRun(true));
    runs.baseline.push(await bareRun());
  }
  const best = (xs) => xs.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
  const ours = best(runs.ours);
  const base = best(runs.baseline);
  raw.emulator = { load, runs };
  const sec = `Emulator on one core: lookup requests of 25 Storefront names, 16 keep-alive connections, best of ${rounds} (baseline: bare node:http JSON echo)`;
  if (runs.ours.some((r) => r.errors > 0)) throw new Error('the emulator answered lookups with errors under load');
  row(sec, 'lookup requests per second', ours.requestsPerSecond, base.requestsPerSecond, ours.requestsPerSecond / base.requestsPerSecond, '>= 5,000/s', ours.requestsPerSecond >= 5000, '/s');
  row(sec, 'identifiers resolved per second (25 per request)', ours.requestsPerSecond * IDS_PER_REQUEST, base.requestsPerSecond * IDS_PER_REQUEST, ours.requestsPerSecond / base.requestsPerSecond, 'info', undefined, '/s');
  row(sec, 'p99 latency', ours.p99Ms, base.p99Ms, ours.p99Ms / base.p99Ms, 'info', undefined, 'ms');
  const off = best(runs.logOff);
  const logSec = `Emulator request log: the same lookups with the log on (default) vs off (--request-log-size 0), best of ${rounds}`;
  row(logSec, 'requests per second, log on vs off', ours.requestsPerSecond, off.requestsPerSecond, ours.requestsPerSecond / off.requestsPerSecond, '>= 0.8', ours.requestsPerSecond / off.requestsPerSecond >= 0.8, '/s');
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const cpuOn = median(runs.ours.map((r) => r.cpuMicrosPerRequest));
  const cpuOff = median(runs.logOff.map((r) => r.cpuMicrosPerRequest));
  if (Number.isFinite(cpuOn) && Number.isFinite(cpuOff)) {
    row(logSec, 'emulator CPU per request, log on vs off (median; ratio = off/on, requests per CPU second)', cpuOn, cpuOff, cpuOff / cpuOn, '>= 0.8', cpuOff / cpuOn >= 0.8, 'µs');
  }
  row(logSec, 'requests logged vs served (log on)', ours.logged, ours.served, ours.logged / ours.served, '= 1', runs.ours.every((r) => r.logged === r.served), 'req');
}

// ---- Player IDs in large files ------------------------------------------------------------

async function ids() {
  const r = await runChild('ids.mjs', { core: CORE_BUNDLE, sizeMB: quick ? 10 : 100, runs: quick ? 1 : 3 }, { timeoutMs: 180_000 });
  raw.ids = r;
  const sec = `Player IDs in a generated ${fmt(r.bytes / 1e6)} MB log (${fmt(r.planted)} IDs planted; MB = 10^6 bytes)`;
  row(sec, `findPlatformIds throughput (found ${fmt(r.found)}) vs regex /\\b[0-9A-F]{16}\\b/gi`, r.oursMBps, r.baselineMBps, r.oursMBps / r.baselineMBps, '>= 200 MB/s', r.oursMBps >= 200 && r.found === r.planted, 'MB/s');
  const at = r.platformIdAt;
  row(sec, 'platformIdAt per call: line in the 100 MB file vs a short line', at.in100MBNs, at.shortNs, at.in100MBNs / at.shortNs, 'O(line): <= 2', at.in100MBNs / at.shortNs <= 2, 'ns');
  row(sec, 'platformIdAt per call: line in a 1 MB file vs the 100 MB file', at.in1MBNs, at.in100MBNs, at.in1MBNs / at.in100MBNs, 'info', undefined, 'ns');
  row(sec, 'hover cost: platformIdAt vs an O(file) scan of the 100 MB file', at.in100MBNs / 1e6, r.wholeFileScanMs, (at.in100MBNs / 1e6) / r.wholeFileScanMs, 'info', undefined, 'ms');
}

// ---- Redaction of hostile service strings --------------------------------------------------

async function redaction() {
  const r = await runChild('redact.mjs', { core: CORE_BUNDLE, runs: quick ? 1 : 5, candidates: quick ? 100 : 500 }, { timeoutMs: 180_000 });
  raw.redact = r;
  const sec = `Redaction (redactText's scan) of hostile service strings: the worst of ${r.candidates} generated token-like inputs (searched at 80 KB) vs a plain string of the same length`;
  for (const label of ['80KB', '8MB']) {
    const x = r[label];
    row(sec, `${label}: worst input (${x.worst}) vs plain text`, x.worstMs, x.plainMs, x.worstMs / x.plainMs, '<= 10', x.worstMs / x.plainMs <= 10, 'ms');
  }
}

// ---- Size and activation ------------------------------------------------------------------

async function size() {
  const s = await measureSizes();
  raw.size = s;
  const KB = 1024;
  const sec = 'Extension bundle (production build, minified; KB = 1024 bytes)';
  row(sec, 'main bundle dist/extension.js vs undici alone', s.mainBytes / KB, s.undiciBytes / KB, s.mainBytes / s.undiciBytes, '< 150 KB', s.mainBytes < 150 * KB, 'KB');
  row(sec, 'code evaluated at activation (static imports from extension.ts)', s.eagerBytes / KB, s.mainBytes / KB, s.eagerBytes / s.mainBytes, 'info', undefined, 'KB');
  row(sec, 'lazy bundles: dist/undici.js, dist/emulator-lib.js', (s.undiciBytes + s.emulatorLibBytes) / KB, s.mainBytes / KB, (s.undiciBytes + s.emulatorLibBytes) / s.mainBytes, 'info', undefined, 'KB');
  const firstUse = Object.values(s.lazyBytes).reduce((a, b) => a + b, 0);
  row(sec, `loaded on first use: ${Object.entries(s.lazyBytes).map(([n, b]) => `${n} ${(b / KB).toFixed(0)}`).join(', ')}`, firstUse / KB, s.mainBytes / KB, firstUse / s.mainBytes, 'info', undefined, 'KB');
  row(sec, `copies of the vscode API namespace the main bundle's load makes, vs its modules importing 'vscode'`, s.vscodeRequires, s.vscodeImporters, s.vscodeRequires / s.vscodeImporters, '1', s.vscodeRequires === 1);
  row(sec, 'undici and the client load lazily (not reachable without import())', s.undiciEager || s.clientEager ? 'no' : 'yes', '-', '-', 'yes', !(s.undiciEager || s.clientEager));
  return s;
}

async function activation(s) {
  const a = await measureActivation({ samples: quick ? 1 : 5 });
  raw.activation = a;
  const sec = 'Activation in the real extension host (code-server)';
  if (a.skipped) {
    row(sec, `not measured: ${a.skipped}`, '-', '-', '-', '< 15 ms', undefined);
    return;
  }
  row(sec, `activate() (median of ${a.samples.length}) vs require('undici') in the same host`, a.activateMs, a.undiciRequireMs, a.activateMs / a.undiciRequireMs, '< 15 ms', a.activateMs < 15, 'ms');
  row(sec, 'loading the main bundle (dist/main.js, with its code cache) vs require(undici)', a.bundleLoadMs, a.undiciRequireMs, a.bundleLoadMs / a.undiciRequireMs, 'info', undefined, 'ms');
  if (a.cold) row(sec, 'the same load, warm vs the first start (no code cache yet)', a.bundleLoadMs, a.cold.bundleLoadMs, a.bundleLoadMs / a.cold.bundleLoadMs, 'info', undefined, 'ms');
  row(sec, 'a copy loaded again in the same host: with the code cache vs plain require()', a.probeLoadMs, a.plainLoadMs, a.probeLoadMs / a.plainLoadMs, 'info', undefined, 'ms');
  row(sec, 'ours: loading the bundle + activate() (median of the sums) vs require(undici)', a.oursMs, a.undiciRequireMs, a.oursMs / a.undiciRequireMs, '< 20 ms', a.oursMs < 20, 'ms');
  row(sec, 'the same in thread CPU time (not stretched by other processes): load + activate()', a.oursCpuMs, a.undiciRequireMs, a.oursCpuMs / a.undiciRequireMs, 'info', undefined, 'ms');
  row(sec, `  thread CPU: load ${fmt(a.loadCpuMs, 1)} ms, activate() ${fmt(a.activateCpuMs, 1)} ms; built-ins our load adds to the host: ${a.hostParts.newBuiltins.length}`, a.loadCpuMs, a.activateCpuMs, '-', 'info', undefined, 'ms');
  const h = a.hostParts;
  row(sec, `the host's part, activated for ${h.activationEvent}: its log line to our didActivate mark (all below)`, h.totalMs, a.oursMs, h.totalMs / a.oursMs, 'info', undefined, 'ms');
  row(sec, '  host: loading the other extensions of the same event before ours', h.queuedMs, a.oursMs, h.queuedMs / a.oursMs, 'info', undefined, 'ms');
  row(sec, `  host: require() of our entry, its interceptors, our vscode API object (${fmt(h.apiMs, 1)} ms)`, h.requireMs, a.oursMs, h.requireMs / a.oursMs, 'info', undefined, 'ms');
  row(sec, '  host: from our load to activate() (globalState/workspaceState from the workbench, queued work)', h.contextMs, a.oursMs, h.contextMs / a.oursMs, 'info', undefined, 'ms');
  row(sec, '  host: from activate() returning to its didActivate mark', h.settleMs, a.oursMs, h.settleMs / a.oursMs, 'info', undefined, 'ms');
  row(sec, "the workbench handling every extension's contributions: with ours vs the same without (median)", a.extensionPointsMs, a.bareExtensionPointsMs, a.extensionPointsMs / a.bareExtensionPointsMs, 'info', undefined, 'ms');
  if (a.cold) row(sec, 'first start (no code cache yet): load + activate() vs require(undici)', a.cold.bundleLoadMs + a.cold.activateMs, a.cold.undiciRequireMs, (a.cold.bundleLoadMs + a.cold.activateMs) / a.cold.undiciRequireMs, 'info', undefined, 'ms');
  row(sec, 'vscode extension.activate() as a caller sees it (host bookkeeping + load + activate)', a.extensionActivateMs, a.undiciRequireMs, a.extensionActivateMs / a.undiciRequireMs, 'info', undefined, 'ms');
  row(sec, `code cache of the warm samples: ${a.samples.map((r) => r.codeCache).join(', ')}`, '-', '-', '-', 'used', a.samples.every((r) => r.codeCache === 'used'));
  if (s) row(sec, 'main bundle size next to undici alone', s.mainBytes / 1024, s.undiciBytes / 1024, s.mainBytes / s.undiciBytes, '< 150 KB', s.mainBytes < 150 * 1024, 'KB');
}

// ---- Table --------------------------------------------------------------------------------

function printTable() {
  let section;
  const lines = [];
  const cols = ['figure', 'ours', 'baseline', 'ratio', 'target', ''];
  const widths = [78, 12, 12, 8, 13, 4];
  const pad = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join(' ');
  lines.push(pad(cols));
  for (const r of rows) {
    if (r.section !== section) {
      section = r.section;
      lines.push('', `## ${section}`);
    }
    const digits = (v) => (typeof v === 'number' && Math.abs(v) < 10 ? 2 : typeof v === 'number' && Math.abs(v) < 100 ? 1 : 0);
    lines.push(pad([
      r.figure.length > widths[0] ? `${r.figure.slice(0, widths[0] - 1)}…` : r.figure,
      `${fmt(r.ours, digits(r.ours))}${r.unit && typeof r.ours === 'number' ? ` ${r.unit}` : ''}`,
      fmt(r.baseline, digits(r.baseline)),
      typeof r.ratio === 'number' ? fmt(r.ratio, r.ratio < 0.01 ? 6 : 2) : r.ratio,
      r.target,
      r.pass === undefined ? '' : r.pass ? 'pass' : 'MISS',
    ]));
  }
  console.log(lines.join('\n'));
}

let failed;
try {
  await buildBenchBundle();
  if (sections.has('bulk')) await bulk();
  if (sections.has('network')) await network();
  if (sections.has('emulator')) await emulatorLoad();
  if (sections.has('ids')) await ids();
  if (sections.has('redact')) await redaction();
  if (sections.has('deletion')) raw.deletion = await measureDeletion({ quick, row });
  if (sections.has('store')) raw.store = await measureStore({ quick, row });
  if (sections.has('store')) raw.scale = await measureScale({ quick, row });
  if (sections.has('requests-store')) raw.requestsStore = await measureRequestsStore({ quick, row });
  if (sections.has('mcp')) raw.mcp = await measureMcp({ quick, row });
  if (sections.has('requests')) raw.requests = await measureRequests({ quick, row });
  const s = sections.has('size') || sections.has('activation') ? await size() : undefined;
  if (sections.has('activation')) await activation(s);
} catch (e) {
  failed = e;
} finally {
  stopAll();
}
const machine = { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadavgAtEnd: loadavg() };
const seconds = (performance.now() - started) / 1000;
printTable();
console.log(`\n${rows.filter((r) => r.pass === false).length} missed, ${rows.filter((r) => r.pass === true).length} passed; ${fmt(seconds, 0)} s; load average at end ${machine.loadavgAtEnd.map((x) => x.toFixed(1)).join(' ')} on ${machine.cpus} cores.`);
mkdirSync(RESULTS, { recursive: true });
writeFileSync(join(RESULTS, 'bench.json'), `${JSON.stringify({ date: new Date().toISOString(), quick, seconds, machine, rows, raw }, null, 2)}\n`);
console.log(`Wrote ${join('bench-results', 'bench.json')}.`);
if (failed) {
  console.error(`bench failed: ${failed.stack ?? failed}`);
  process.exitCode = 1;
}
