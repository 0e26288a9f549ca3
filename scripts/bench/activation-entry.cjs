// Loaded by the real extension host as extensionTestsPath (no mocha): activates Platform
// Explorer once, reads how long activate() took, times loading a copy of the bundle and
// require('undici') (the baseline), and writes the figures to PLATFORM_BENCH_OUT.
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const vscode = require('vscode');

exports.run = async function run() {
  const ext = vscode.extensions.getExtension('platform-explorer.platform-explorer');
  if (!ext) throw new Error('platform-explorer.platform-explorer is not loaded in this host');
  const wasActive = ext.isActive;
  const t0 = performance.now();
  await ext.activate();
  const extensionActivateMs = performance.now() - t0;
  // The host loaded the bundle with require(), so this is the same module instance.
  const main = require(join(ext.extensionPath, 'dist', 'extension.js'));
  const l0 = performance.now();
  require(join(ext.extensionPath, 'dist', 'load-probe.js'));
  const bundleLoadMs = performance.now() - l0;
  const u0 = performance.now();
  require(process.env.PLATFORM_BENCH_UNDICI);
  const undiciRequireMs = performance.now() - u0;
  writeFileSync(process.env.PLATFORM_BENCH_OUT, JSON.stringify({
    wasActive, extensionActivateMs, activateMs: main.lastActivationMs, bundleLoadMs, undiciRequireMs, node: process.version, vscode: vscode.version,
  }));
};
