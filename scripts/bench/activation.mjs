// Activation time in the real extension host: code-server (scripts/test-host) loads a
// production build of the extension as a development extension, and activation-entry.cjs runs
// in its extension host as the tests entry. Each sample is a fresh page, so a fresh host.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildExtension } from '../../esbuild.mjs';
import { median, REPO, RESULTS } from './lib.mjs';
import { MARKER } from '../test-host/paths.mjs';

const SAMPLE_TIMEOUT_MS = 120_000;

/** A copy of the extension as it ships: package.json, media, and the production bundles. */
async function productionExtension(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'dist'), { recursive: true });
  // The copy starts at a wrapper that times the shipped entry under it (activation-main.cjs).
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, main: './bench-main.js' }, null, 2));
  for (const f of readdirSync(REPO).filter((n) => /^package\.nls(\..+)?\.json$/.test(n))) cpSync(join(REPO, f), join(dir, f));
  cpSync(join(REPO, 'scripts', 'bench', 'activation-main.cjs'), join(dir, 'bench-main.js'));
  cpSync(join(REPO, 'media'), join(dir, 'media'), { recursive: true });
  cpSync(join(REPO, 'scripts', 'bench', 'activation-entry.cjs'), join(dir, 'bench-entry.js'));
  await buildExtension({ bundle: true, platform: 'node', target: 'node20', format: 'cjs', minify: true, external: ['vscode'], logLevel: 'warning' }, join(dir, 'dist'));
  // A second copy the entry require()s to time loading the bundle on its own (a fresh module).
  cpSync(join(dir, 'dist', 'extension.js'), join(dir, 'dist', 'load-probe.js'));
  cpSync(join(dir, 'dist', 'extension.js'), join(dir, 'dist', 'load-probe-plain.js'));
}

/** The same extension with no contributions and no activation events: it is scanned, never activated. */
function bareExtension(from, dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, activationEvents: [], contributes: {} }, null, 2));
  for (const f of readdirSync(from).filter((n) => /^package\.nls(\..+)?\.json$/.test(n) || n === 'bench-entry.js')) cpSync(join(from, f), join(dir, f));
}

/** Epoch ms of a host performance mark about our extension, or undefined. */
const markAt = (r, name) => r.host.marks.find((m) => m.name === `code/extHost/${name}/platform-explorer.platform-explorer`)?.startTime;

/**
 * The host's part of our activation, from its own marks and log line (epoch ms; the log's to the
 * millisecond, the marks rounded to it), each a median over the samples:
 * - queued: from the host's "activating platform-explorer for onStartupFinished" log line to its
 *   starting to load our code (it loads the other extensions of the same event first);
 * - require: from that start to our entry's first line (resolving and reading our main file, its
 *   module interceptors, and the vscode API object it builds for us on our first require('vscode'));
 * - context: from the end of our load to the host calling activate() (it waits for our
 *   globalState and workspaceState from the workbench, and runs other work queued on the thread);
 * - settle: from activate() returning to the host's didActivate mark.
 */
export function hostParts(results) {
  const part = (f) => median(results.map(f).filter((v) => Number.isFinite(v)));
  const loggedAt = (r) => r.host.hostLog.find((l) => /_doActivateExtension platform-explorer\.platform-explorer,/.test(l.text))?.at;
  return {
    activationEvent: /activationEvent: '([^']*)'/.exec(results[0]?.host.hostLog.find((l) => /_doActivateExtension platform-explorer\./.test(l.text))?.text ?? '')?.[1],
    queuedMs: part((r) => markAt(r, 'willLoadExtensionCode') - loggedAt(r)),
    requireMs: part((r) => r.host.loadStartedAt - markAt(r, 'willLoadExtensionCode')),
    contextMs: part((r) => markAt(r, 'willActivateExtension') - markAt(r, 'didLoadExtensionCode')),
    settleMs: part((r) => markAt(r, 'didActivateExtension') - (r.host.activateStartedAt + r.host.activateWallMs)),
    totalMs: part((r) => markAt(r, 'didActivateExtension') - loggedAt(r)),
    apiMs: part((r) => r.host.apiWallMs),
    newBuiltins: [...new Set(results.flatMap((r) => r.host.newBuiltins))],
  };
}

/**
 * The workbench's own handling of every extension's contributions (ours among them), from its
 * performance marks code/will|didHandleExtensionPoint/<point>: ms per point, summed over batches.
 */
async function extensionPointTimes(page) {
  const marks = await page.evaluate(() => performance.getEntriesByType('mark').filter((m) => m.name.includes('HandleExtensionPoint')).map((m) => ({ name: m.name, t: m.startTime })));
  const open = new Map();
  const perPoint = {};
  let totalMs = 0;
  for (const { name, t } of marks) {
    const m = /^code\/(will|did)HandleExtensionPoints?(?:\/(.*))?$/.exec(name);
    if (!m) continue;
    const key = m[2] ?? '*';
    if (m[1] === 'will') open.set(key, t);
    else if (open.has(key)) {
      const ms = t - open.get(key);
      open.delete(key);
      if (key === '*') totalMs += ms;
      else perPoint[key] = (perPoint[key] ?? 0) + ms;
    }
  }
  return { totalMs, perPoint };
}

/** `samples` warm starts (each a fresh host) after one cold start that writes the code caches. */
export async function measureActivation({ samples = 3 } = {}) {
  if (!existsSync(MARKER)) return { skipped: 'the test host is not installed (node scripts/test-host/install.mjs)' };
  const { startCodeServer, CHROMIUM, CHROMIUM_ARGS } = await import('../test-host/server.mjs');
  const { chromium } = await import('playwright-core');
  const extDir = join(RESULTS, '.build', 'ext');
  const bareDir = join(RESULTS, '.build', 'ext-bare');
  await productionExtension(extDir);
  bareExtension(extDir, bareDir);
  const bare = [];
  const server = await startCodeServer({});
  let browser;
  const results = [];
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    const context = await browser.newContext();
    await server.login(context);
    /** One fresh page (a fresh extension host) running the benchmark entry of the copy in `dir`. */
    const sample = async (dir, outFile, env) => {
      const page = await context.newPage();
      try {
        let finish;
        const finished = new Promise((r) => { finish = r; });
        await page.exposeFunction('codeAutomationLog', () => undefined);
        await page.exposeFunction('codeAutomationExit', (code) => finish(code));
        await page.goto(server.testUrl({
          extensionDevelopmentPath: dir,
          extensionTestsPath: join(dir, 'bench-entry.js'),
          extensionEnvironment: { PLATFORM_BENCH_OUT: outFile, PLATFORM_BENCH_UNDICI: join(REPO, 'node_modules', 'undici'), ...env },
        }));
        let timer;
        const code = await Promise.race([finished, new Promise((r) => { timer = setTimeout(() => r('time-out'), SAMPLE_TIMEOUT_MS); })]);
        clearTimeout(timer);
        if (code !== 0) throw new Error(`the activation entry in the extension host ended with ${code}; server log: ${server.logFile}`);
        return { ...JSON.parse(readFileSync(outFile, 'utf8')), workbench: await extensionPointTimes(page) };
      } finally {
        await page.close();
      }
    };
    // i = -1 clears the code caches (activation-entry.cjs); i = 0 is the cold start; then the warm
    // ones, each followed by a start of the copy without contributions (the workbench's share of ours).
    for (let i = -1; i <= samples; i++) {
      const r = await sample(extDir, join(extDir, `activation-${i}.json`), { PLATFORM_BENCH_COLD: i < 0 ? '1' : '0' });
      if (i >= 0) results.push(r);
      if (i >= 1) bare.push(await sample(bareDir, join(bareDir, `bare-${i}.json`), { PLATFORM_BENCH_BARE: '1' }));
    }
  } finally {
    if (browser) await browser.close();
    await server.stop();
    rmSync(extDir, { recursive: true, force: true });
    rmSync(bareDir, { recursive: true, force: true });
  }
  const cold = results.shift();
  if (results.some((r) => r.wasActive)) throw new Error('the extension was already active before the benchmark activated it');
  if (results.some((r) => typeof r.activateMs !== 'number')) throw new Error('activate() did not record lastActivationMs');
  return {
    samples: results,
    loadCpuMs: median(results.map((r) => r.host.loadCpuMs)),
    activateCpuMs: median(results.map((r) => r.host.activateCpuMs)),
    oursCpuMs: median(results.map((r) => r.host.loadCpuMs + r.host.activateCpuMs)),
    oursMs: median(results.map((r) => r.bundleLoadMs + r.activateMs)),
    hostParts: hostParts(results),
    // The workbench's handling of all extensions' contributions, with ours vs without (the same extension, manifest stripped).
    extensionPointsMs: median(results.map((r) => r.workbench.totalMs)),
    bareExtensionPointsMs: median(bare.map((r) => r.workbench.totalMs)),
    bare,
    activateMs: median(results.map((r) => r.activateMs)),
    extensionActivateMs: median(results.map((r) => r.extensionActivateMs)),
    bundleLoadMs: median(results.map((r) => r.bundleLoadMs)),
    plainLoadMs: median(results.map((r) => r.plainLoadMs)),
    probeLoadMs: median(results.map((r) => r.probeLoadMs)),
    cold,
    undiciRequireMs: median(results.map((r) => r.undiciRequireMs)),
  };
}
