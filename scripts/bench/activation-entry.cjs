// Loaded by the real extension host as extensionTestsPath (no mocha): activates Platform
// Explorer once, reads how long activate() took, times loading a copy of the bundle as the entry
// does (code cache) and another with require(), and require('undici') (the baseline), then
// writes the code caches (the next sample starts warm) and the figures to PLATFORM_BENCH_OUT.
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const vscode = require('vscode');

/** The host log's lines about starting and activating extensions, each with its time (epoch ms). */
function readHostLog(file) {
  const { readFileSync } = require('node:fs');
  let text;
  try { text = readFileSync(file, 'utf8'); } catch { return []; }
  return text.split('\n').filter((l) => /_doActivateExtension|Eager extensions activated|Extension host with pid/.test(l)).map((l) => {
    const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3}) \[\w+\] (.*)$/.exec(l);
    return m ? { at: new Date(`${m[1]}T${m[2]}`).getTime(), text: m[3] } : { text: l };
  });
}

exports.run = async function run() {
  // The first sample starts without a code cache: its own (and its probe's) are removed first.
  if (process.env.PLATFORM_BENCH_COLD === '1') {
    const { rmSync, readdirSync } = require('node:fs');
    const ext0 = vscode.extensions.getExtension('platform-explorer.platform-explorer');
    const { cachePlace } = require(join(ext0.extensionPath, 'dist', 'main.js'));
    for (const f of ['extension.js', 'load-probe.js']) {
      const { folder, prefix } = cachePlace(join(ext0.extensionPath, 'dist', f));
      if (folder) for (const name of readdirSync(folder)) if (name.startsWith(prefix)) rmSync(join(folder, name), { force: true });
    }
    writeFileSync(process.env.PLATFORM_BENCH_OUT, JSON.stringify({ cleared: true }));
    return;
  }
  // The copy without contributions (activation.mjs): nothing to activate; the page's marks are read.
  if (process.env.PLATFORM_BENCH_BARE === '1') {
    writeFileSync(process.env.PLATFORM_BENCH_OUT, JSON.stringify({ bare: true, active: vscode.extensions.getExtension('platform-explorer.platform-explorer')?.isActive }));
    return;
  }
  const ext = vscode.extensions.getExtension('platform-explorer.platform-explorer');
  if (!ext) throw new Error('platform-explorer.platform-explorer is not loaded in this host');
  const wasActive = ext.isActive;
  const t0 = performance.now();
  await ext.activate();
  const extensionActivateMs = performance.now() - t0;
  const callerAt = [performance.timeOrigin + t0, performance.timeOrigin + t0 + extensionActivateMs];
  // The host loaded the entry (dist/main.js), which put the bundle in require.cache: the same instances.
  const entry = require(join(ext.extensionPath, 'dist', 'main.js'));
  const main = require(join(ext.extensionPath, 'dist', 'extension.js'));
  // Loading a copy of the bundle as the entry loads it (with the code cache an earlier sample wrote)...
  const l0 = performance.now();
  const probe = entry.loadBundle(join(ext.extensionPath, 'dist', 'load-probe.js'));
  const bundleLoadMs = performance.now() - l0;
  // ...and another copy with a plain require() (compiled from scratch), as the host would without the entry.
  const p0 = performance.now();
  require(join(ext.extensionPath, 'dist', 'load-probe-plain.js'));
  const plainLoadMs = performance.now() - p0;
  entry.saveCodeCache();
  probe.saveCache();
  const u0 = performance.now();
  require(process.env.PLATFORM_BENCH_UNDICI);
  const undiciRequireMs = performance.now() - u0;
  // The host's side: its performance marks (epoch ms) and its log's activation lines (the wrapper
  // activation-main.cjs, the copy's package.json main, recorded when our code started and ended).
  const { bench } = require(join(ext.extensionPath, 'bench-main.js'));
  const marks = (globalThis.MonacoPerformanceMarks?.getMarks() ?? []).filter((m) => m.name.startsWith('code/extHost/') || m.name === 'code/timeOrigin');
  const hostLog = bench.hostLog ? readHostLog(bench.hostLog) : [];
  writeFileSync(process.env.PLATFORM_BENCH_OUT, JSON.stringify({
    host: { ...bench, callerAt, marks, hostLog },
    wasActive, extensionActivateMs, activateMs: main.lastActivationMs, bundleLoadMs: entry.bundleLoadMs, codeCache: entry.codeCache, loadSteps: entry.loadSteps, probeLoadMs: bundleLoadMs, plainLoadMs, undiciRequireMs, node: process.version, vscode: vscode.version,
  }));
};
