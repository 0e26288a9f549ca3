// The activation benchmark's copy of the extension starts here (its package.json `main`), so the
// host's own part can be told from ours: this wrapper records when the host began loading our
// code, the thread CPU and wall time of loading dist/main.js (the shipped entry) and of
// activate(), and which of Node's built-in modules our load brought into the host. The shipped
// entry runs unchanged under it; the benchmark entry (activation-entry.cjs) reads `bench`.
const { dirname, join } = require('node:path');

/** CPU time of this thread in ms (Node >= 23.9; process-wide otherwise). */
const cpu = () => { const u = process.threadCpuUsage ? process.threadCpuUsage() : process.cpuUsage(); return (u.user + u.system) / 1000; };
const epoch = (t) => performance.timeOrigin + t;

// The host's own work on our first require('vscode'): it builds the API object of this extension.
const a0 = performance.now();
const ac0 = cpu();
const apiMembers = Object.getOwnPropertyNames(require('vscode')).length;
const apiCpuMs = cpu() - ac0;
const apiWallMs = performance.now() - a0;

// Every require() during our load, through the host's module interceptors, counted and timed.
const Module = require('node:module');
const load = Module._load;
const requires = {};
Module._load = function (request, ...rest) {
  const t = performance.now();
  try { return load.call(this, request, ...rest); } finally {
    const r = (requires[request] ??= { n: 0, ms: 0 });
    r.n++;
    r.ms += performance.now() - t;
  }
};
const builtinsBefore = new Set(process.moduleLoadList);
const w0 = performance.now();
const c0 = cpu();
let entry;
try {
  entry = require('./dist/main.js');
} finally {
  Module._load = load;
}
const c1 = cpu();
const w1 = performance.now();

exports.bench = {
  apiWallMs,
  apiCpuMs,
  apiMembers,
  loadStartedAt: epoch(w0),
  loadWallMs: w1 - w0,
  loadCpuMs: c1 - c0,
  requires,
  newBuiltins: process.moduleLoadList.filter((m) => !builtinsBefore.has(m)),
};

exports.activate = function activate(ctx) {
  const w = performance.now();
  const c = cpu();
  const api = entry.activate(ctx);
  exports.bench.activateCpuMs = cpu() - c;
  exports.bench.activateWallMs = performance.now() - w;
  exports.bench.activateStartedAt = epoch(w);
  exports.bench.hostLog = join(dirname(ctx.logUri.fsPath), 'remoteexthost.log');
  return api;
};

exports.deactivate = function deactivate() {
  return entry.deactivate();
};
