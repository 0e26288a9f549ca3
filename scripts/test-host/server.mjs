// Starts code-server (a real VS Code 1.139 with a server-side extension host) on a free
// loopback port, isolated in its own run folder and process group. Used by run.mjs (the
// integration suite), the UI tests and the demo. Every run has its own random password
// (--auth password, PASSWORD in the server's environment only): a loopback port is open to
// every local user and, by DNS rebinding, to web pages, and the workbench can run commands.
// Every run is also served under a random host name of its own (`<random>.localhost`, which
// Chromium resolves to loopback by itself): code-server's session cookie is host-only and
// browsers send a cookie to every port of its host, so on 127.0.0.1 any other local listener
// reached by one navigation would get it; under the run's own name it goes nowhere else.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { CHROMIUM, CODE_SERVER_ENTRY, MARKER, NODE24_BIN, REPO_ROOT, RUNS_DIR } from './paths.mjs';

export { CHROMIUM, REPO_ROOT };

// Chromium flags for a quiet headless browser on a machine without internet.
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

const DEFAULT_SETTINGS = {
  'chat.disableAIFeatures': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'workbench.startupEditor': 'none',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.enableExperiments': false,
};

const RUN_DIR_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export function assertInstalled() {
  if (!existsSync(MARKER) || !existsSync(NODE24_BIN) || !existsSync(CODE_SERVER_ENTRY)) {
    throw new Error('the test VS Code is not installed: run `node scripts/test-host/install.mjs` first');
  }
}

/**
 * One HTTP request from Node to a run's `http://<name>.localhost:PORT` URL: Node does not resolve
 * *.localhost, so it goes to 127.0.0.1 with the name in the Host header, as a browser's would.
 * @returns {Promise<{ status: number, headers: import('node:http').IncomingHttpHeaders }>}
 */
export function loopbackRequest(url, { method = 'GET', headers = {}, body } = {}) {
  const u = new URL(url);
  return new Promise((resolveRes, reject) => {
    const req = request({ host: '127.0.0.1', port: u.port, path: `${u.pathname}${u.search}`, method, headers: { ...headers, host: u.host } }, (res) => {
      res.resume();
      res.once('end', () => resolveRes({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer from ${u.host}`)));
    req.once('error', reject);
    req.end(body);
  });
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolvePort(port));
    });
  });
}

// Run folders of earlier runs (kept after failures for their logs) are removed after a day.
function pruneOldRuns() {
  let names;
  try { names = readdirSync(RUNS_DIR); } catch { return; }
  for (const name of names) {
    const dir = join(RUNS_DIR, name);
    try {
      if (Date.now() - statSync(dir).mtimeMs > RUN_DIR_MAX_AGE_MS) rmSync(dir, { recursive: true, force: true });
    } catch { /* raced with another run's cleanup */ }
  }
}

/** `<publisher>.<name>-<version>`, the folder name VS Code gives an installed extension. */
function extensionFolderName(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  return `${pkg.publisher}.${pkg.name}-${pkg.version}`;
}

function groupAlive(pgid) {
  try { process.kill(-pgid, 0); return true; } catch { return false; }
}

function killGroup(pgid, signal) {
  try { process.kill(-pgid, signal); } catch { /* already gone */ }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitForGroupExit(pgid, ms) {
  const deadline = Date.now() + ms;
  while (groupAlive(pgid) && Date.now() < deadline) await sleep(100);
  return !groupAlive(pgid);
}

/**
 * @param {object} [o]
 * @param {string} [o.folder] workspace folder the workbench opens (default: an empty folder in the run dir)
 * @param {Record<string, unknown>} [o.settings] extra user settings
 * @param {Record<string, unknown>} [o.machineSettings] settings of the server's machine (Remote settings): where the
 *   extension host reads machine-scoped settings, which it ignores in User settings
 * @param {Record<string, string>} [o.env] extra environment for the server and its extension host
 * @param {number} [o.startTimeoutMs] deadline for /healthz (default 60 s)
 * @param {(line: string) => void} [o.log] progress lines (default: none)
 * @param {boolean} [o.testDriver] VS Code's smoke-test driver (default true): needed for test payloads, hides notification toasts
 * @param {boolean} [o.workspaceTrust] keep workspace trust on (default false: tests open their own folders)
 * @param {string[]} [o.extensions] extension folders installed (linked) into this run's extensions folder
 * @returns {Promise<{ origin: string, loopback: string, host: string, url: string, port: number, runDir: string, folder: string, logFile: string, password: string,
 *   login(target: import('playwright-core').Page | import('playwright-core').BrowserContext): Promise<void>,
 *   remoteUri(path: string): string, workbenchUrl(o?: { folder?: string, payload?: [string, string][] }): string,
 *   testUrl(o: { extensionDevelopmentPath: string, extensionTestsPath?: string, extensionEnvironment?: Record<string, string>, folder?: string }): string,
 *   exited: Promise<number | null>, stop(o?: { keepRunDir?: boolean }): Promise<void> }>}
 */
export async function startCodeServer(o = {}) {
  assertInstalled();
  const log = o.log ?? (() => {});
  pruneOldRuns();

  // A short run id keeps socket paths under TMPDIR within the 107-byte limit.
  const runId = `${Date.now().toString(36)}-${process.pid.toString(36)}`;
  const runDir = join(RUNS_DIR, runId);
  const dirs = {
    home: join(runDir, 'home'), tmp: join(runDir, 'tmp'), ud: join(runDir, 'ud'), ext: join(runDir, 'ext'),
    config: join(runDir, 'xdg', 'config'), data: join(runDir, 'xdg', 'data'), cache: join(runDir, 'xdg', 'cache'),
    state: join(runDir, 'xdg', 'state'), runtime: join(runDir, 'xdg', 'run'), workspace: join(runDir, 'workspace'),
  };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true, mode: 0o700 });
  mkdirSync(join(dirs.ud, 'User'), { recursive: true });
  const testDriver = o.testDriver ?? true;
  const workspaceTrust = o.workspaceTrust ?? false;
  const settings = { ...DEFAULT_SETTINGS, ...(workspaceTrust ? {} : { 'security.workspace.trust.enabled': false }), ...o.settings };
  writeFileSync(join(dirs.ud, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  if (o.machineSettings) {
    mkdirSync(join(dirs.ud, 'Machine'), { recursive: true });
    writeFileSync(join(dirs.ud, 'Machine', 'settings.json'), JSON.stringify(o.machineSettings, null, 2));
  }
  for (const dir of o.extensions ?? []) symlinkSync(resolve(dir), join(dirs.ext, extensionFolderName(dir)), 'dir');
  const folder = resolve(o.folder ?? dirs.workspace);

  const port = await freePort();
  // The browser's address: a name no other listener is reached by. Node and the system resolver
  // do not resolve *.localhost, so our own requests (healthz) go to 127.0.0.1.
  const host = `pe-${randomBytes(8).toString('hex')}.localhost`;
  const origin = `http://${host}:${port}`;
  const loopback = `http://127.0.0.1:${port}`;
  const configFile = join(runDir, 'config.yaml');
  // The password goes in the server's environment only (code-server deletes it from its own
  // environment at start, so terminals and the extension host never inherit it).
  const password = randomBytes(24).toString('base64url');
  writeFileSync(configFile, `bind-addr: 127.0.0.1:${port}\nauth: password\ncert: false\n`, { mode: 0o600 });

  const env = { ...process.env };
  // A parent VS Code (e.g. a developer's terminal) must not leak its IPC hooks into ours.
  for (const k of Object.keys(env)) if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE') delete env[k];
  Object.assign(env, {
    HOME: dirs.home, TMPDIR: dirs.tmp, XDG_CONFIG_HOME: dirs.config, XDG_DATA_HOME: dirs.data,
    XDG_CACHE_HOME: dirs.cache, XDG_STATE_HOME: dirs.state, XDG_RUNTIME_DIR: dirs.runtime,
    EXTENSIONS_GALLERY: '{}', ...o.env, PASSWORD: password,
  });

  const logFile = join(runDir, 'server.log');
  const out = createWriteStream(logFile);
  const args = [
    CODE_SERVER_ENTRY, '--config', configFile, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'password',
    '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    ...(testDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    '--user-data-dir', dirs.ud, '--extensions-dir', dirs.ext,
  ];
  log(`starting code-server on ${loopback}, served to the browser as ${origin} (run folder ${runDir})`);
  // detached = setsid: the server and everything it spawns share one process group we can kill.
  const child = spawn(NODE24_BIN, args, { cwd: dirs.home, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const pgid = child.pid;
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  const exited = new Promise((r) => {
    child.once('exit', (code) => r(code));
    child.once('error', (e) => { out.write(`spawn error: ${e.message}\n`); r(null); });
  });

  // Last resort if our process exits without calling stop(): never leave the group behind.
  const onExit = () => killGroup(pgid, 'SIGKILL');
  process.on('exit', onExit);

  let stopped = false;
  async function stop({ keepRunDir = false } = {}) {
    if (stopped) return;
    stopped = true;
    if (pgid) {
      killGroup(pgid, 'SIGTERM');
      if (!(await waitForGroupExit(pgid, 5000))) {
        killGroup(pgid, 'SIGKILL');
        await waitForGroupExit(pgid, 2000);
      }
    }
    process.off('exit', onExit);
    await new Promise((r) => out.end(r));
    if (!keepRunDir) rmSync(runDir, { recursive: true, force: true });
  }

  const remoteUri = (p) => `vscode-remote://${host}:${port}${resolve(p)}`;
  const workbenchUrl = ({ folder: f = folder, payload } = {}) => {
    const q = new URLSearchParams({ folder: resolve(f) });
    if (payload) q.set('payload', JSON.stringify(payload));
    return `${origin}/?${q}`;
  };
  const testUrl = ({ extensionDevelopmentPath, extensionTestsPath, extensionEnvironment, folder: f }) => {
    const payload = [['extensionDevelopmentPath', remoteUri(extensionDevelopmentPath)]];
    if (extensionTestsPath) payload.push(['extensionTestsPath', remoteUri(extensionTestsPath)]);
    payload.push(['skipWelcome', 'true']);
    if (extensionEnvironment && Object.keys(extensionEnvironment).length > 0) {
      payload.push(['extensionEnvironment', JSON.stringify(extensionEnvironment)]);
    }
    return workbenchUrl({ folder: f, payload });
  };

  try {
    const deadline = Date.now() + (o.startTimeoutMs ?? 60_000);
    let ready = false;
    let early = false;
    void exited.then(() => { early = true; });
    while (!ready) {
      if (early) throw new Error(`code-server exited during start-up; see ${logFile}`);
      if (Date.now() > deadline) throw new Error(`code-server did not answer /healthz in time; see ${logFile}`);
      try {
        const res = await fetch(`${loopback}/healthz`, { signal: AbortSignal.timeout(2000) });
        ready = res.ok;
      } catch { /* not listening yet */ }
      if (!ready) await sleep(200);
    }
  } catch (e) {
    await stop({ keepRunDir: true });
    throw e;
  }
  log('code-server is up');
  /**
   * Logs the browser in (the session cookie) on the login page, as a person does: in `target`
   * when it is a page (the caller opens the workbench in it next), else in a page of the context.
   */
  async function login(target) {
    const page = typeof target.goto === 'function' ? target : await target.newPage();
    try {
      // To /healthz afterwards: the workbench is opened by the caller, not loaded twice.
      await page.goto(`${origin}/login?to=${encodeURIComponent('/healthz')}`);
      await page.locator('input[type="password"]').fill(password);
      await Promise.all([page.waitForURL((u) => u.pathname.endsWith('/healthz'), { timeout: 30_000 }), page.locator('input[type="password"]').press('Enter')]);
    } catch (e) {
      throw new Error(`logging in to code-server failed (${e.message}); see ${logFile}`, { cause: e });
    } finally {
      if (page !== target) await page.close();
    }
    if (!(await page.context().cookies(origin)).some((c) => c.name.startsWith('code-server-session'))) {
      throw new Error(`logging in to code-server set no session cookie; see ${logFile}`);
    }
  }
  return { origin, loopback, host, url: `${origin}/`, port, runDir, folder, logFile, password, login, remoteUri, workbenchUrl, testUrl, exited, stop };
}
