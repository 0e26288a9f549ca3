#!/usr/bin/env node
// npm run demo: build, start the emulator (demo seed, 127.0.0.1, free port) as its own
// process, and open VS Code with the extension loaded and the demo titles configured with
// their keys (handed over in a 0600 file in a 0700 folder named by PLATFORM_EXPLORER_DEMO_FILE;
// the extension deletes it once read). Desktop `code` when it is on PATH, otherwise the test
// VS Code in the browser (code-server on 127.0.0.1, served as pe-<random>.localhost so its
// session cookie goes to no other local listener, with a password of this run; URL and
// password are printed). Workspace trust stays on. Ctrl+C, or SIGTERM to this script or to npm's
// PID, stops everything it started; the demo keys stay readable (0600) until then, to restore one.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { CACHE_DIR, REPO_ROOT } from '../test-host/paths.mjs';
import { startEmulatorProcess } from './emulatorProcess.mjs';

const DEMO_ENV = 'PLATFORM_EXPLORER_DEMO_FILE';
const log = (m) => console.log(`[demo] ${m}`);

function onPath(cmd) {
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    try { accessSync(join(dir, cmd), constants.X_OK); return join(dir, cmd); } catch { /* not here */ }
  }
  return undefined;
}

function runOrExit(args, what) {
  const r = spawnSync(process.execPath, args, { cwd: REPO_ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`[demo] ${what} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

/** A workspace with a support ticket naming real demo players, for the editor features. */
async function demoWorkspace(emulator) {
  const folder = join(CACHE_DIR, 'demo-workspace');
  mkdirSync(folder, { recursive: true });
  const racer = emulator.titles[0];
  const names = ['racer_ana_0', 'racer_bo_1', 'racer_dee_3', 'nobody_here'];
  let pairs = [];
  try {
    const res = await fetch(`${emulator.endpoint.replace('{titleId}', racer.titleId)}/Server/GetPlatformIDsFromStorefrontNames`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'X-SecretKey': racer.secretKey },
      body: JSON.stringify({ StorefrontNames: names }),
    });
    pairs = (await res.json()).data?.Data ?? [];
  } catch { /* the ticket is a convenience; the demo works without it */ }
  writeFileSync(join(folder, 'support-tickets.md'), [
    '# Support tickets (demo data)',
    '',
    'Hover a PlatformId, or right-click it, for Show Played Titles, Copy PlatformId and Delete Master Player Account.',
    'Select the Storefront names below and right-click to look up their PlatformIds.',
    '',
    ...pairs.map((p) => `- Storefront name ${p.StorefrontName}: PlatformId ${p.PlatformId ?? '(not linked)'}`),
    '',
    'Storefront names to look up:',
    ...names,
    '',
  ].join('\n'));
  return folder;
}

async function main() {
  runOrExit([join(REPO_ROOT, 'esbuild.mjs')], 'the build (node esbuild.mjs)');
  const code = onPath('code');
  if (!code) runOrExit([join(REPO_ROOT, 'scripts', 'test-host', 'install.mjs')], 'installing the test VS Code');

  const stops = [];
  let stopping;
  const stopAll = () => {
    stopping ??= (async () => {
      while (stops.length) await stops.pop()().catch((e) => console.error(`[demo] stop: ${e.message}`));
    })();
    return stopping;
  };
  let exiting = false;
  const stopAndExit = (why, exitCode) => {
    // Said once: a signal, the parent's end and the watch below can each arrive while it stops.
    if (exiting) return;
    exiting = true;
    log(`${why}: stopping the emulator and VS Code`);
    void stopAll().finally(() => { log('stopped'); process.exit(exitCode); });
  };
  for (const [sig, exitCode] of [['SIGINT', 0], ['SIGTERM', 0], ['SIGHUP', 129]]) process.on(sig, () => stopAndExit(sig, exitCode));
  // `kill <PID of npm>`: npm passes SIGTERM to the shell it runs this script in, and the shell
  // ends without passing it on, leaving this process (and what it started) orphaned. Its parent
  // changing is the sign: stop everything, by the PIDs this script holds.
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    stopAndExit(`the parent process (${parent}) is gone`, 0);
  }, 500).unref();

  try {
    const emulator = await startEmulatorProcess({ seed: 'demo' });
    stops.push(() => emulator.stop());
    log(`emulator (pid ${emulator.pid}) at ${emulator.endpoint}; the ${emulator.titles.length} demo titles, added with their keys: ${emulator.titles.map((t) => t.titleId).join(', ')}`);
    // mkdtemp makes the folder 0700; the file is 0600 and the extension deletes it once read.
    const handover = mkdtempSync(join(tmpdir(), 'platform-demo-'));
    stops.push(async () => rmSync(handover, { recursive: true, force: true }));
    const keysFile = join(handover, 'demo.json');
    writeFileSync(keysFile, JSON.stringify({ endpoint: emulator.endpoint, controlToken: emulator.controlToken, titles: emulator.titles }), { mode: 0o600 });
    // A copy the extension does not consume, to restore a demo key cleared during the demo.
    const keysCopy = join(handover, 'demo-keys.txt');
    writeFileSync(keysCopy, `${emulator.titles.map((t) => `${t.titleId} ${t.secretKey}`).join('\n')}\n`, { mode: 0o600 });
    const env = { [DEMO_ENV]: keysFile };
    log(`demo keys handed over in ${DEMO_ENV}=${keysFile} (mode 0600; the extension deletes it once read)`);
    log(`cleared a demo title's key? Set Secret Key restores it: the demo keys are in ${keysCopy} (mode 0600; removed when the demo stops)`);
    const folder = await demoWorkspace(emulator);

    if (code) {
      // A profile of its own: the demo's titles and keys stay out of your everyday VS Code.
      const profile = join(CACHE_DIR, 'demo-desktop');
      const child = spawn(code, ['--new-window', '--wait', '--user-data-dir', join(profile, 'ud'), '--extensions-dir', join(profile, 'ext'),
        `--extensionDevelopmentPath=${REPO_ROOT}`, folder], { env: { ...process.env, ...env }, stdio: 'inherit' });
      stops.push(async () => { if (child.exitCode === null) child.kill('SIGTERM'); });
      log('VS Code is opening with the extension and the demo titles (Platform in the activity bar). Close the window or press Ctrl+C to stop.');
      await new Promise((r) => child.once('exit', r));
      log('VS Code window closed');
    } else {
      const { startCodeServer } = await import('../test-host/server.mjs');
      // No smoke-test driver (it hides notifications), so the extension is installed (linked) into
      // this run's extensions folder rather than passed as a development path.
      const server = await startCodeServer({
        folder, env, settings: { 'window.commandCenter': false, 'git.openRepositoryInParentFolders': 'never' }, testDriver: false, workspaceTrust: true, extensions: [REPO_ROOT],
      });
      stops.push(() => server.stop());
      const url = server.workbenchUrl();
      log('`code` is not on PATH: VS Code runs in your browser instead (desktop `code` is preferred where it exists).');
      log('Open this URL: a host name of this run only, on 127.0.0.1 (your browser resolves *.localhost to this machine):');
      console.log(`\n  ${url}\n`);
      log(`Log in with this run's password (valid until Ctrl+C): ${server.password}`);
      log('Then trust the demo folder when VS Code asks (keys are sent only in a trusted workspace) and click Platform in the activity bar. Press Ctrl+C to stop.');
      const exitCode = await server.exited;
      if (!stopping) log(`VS Code (code-server) exited on its own (${exitCode}); see ${server.logFile}`);
    }
  } catch (e) {
    console.error(`[demo] ${e.message}`);
    process.exitCode = 1;
  }
  await stopAll();
}

await main();
