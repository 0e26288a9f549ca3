#!/usr/bin/env node
// `npm run demo` end to end: the script prints a URL under a host name of this run (on
// 127.0.0.1) and a password of this run; the workbench answers nobody without it, and its
// session cookie reaches no other local listener; after logging in and trusting the folder the
// demo titles show with their keys, notifications show, the keys' hand-over file is gone, and SIGINT stops
// the emulator and VS Code. Also: the extension ignores a hand-over file whose endpoint is not
// on this machine, or that others can read.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, loopbackRequest, REPO_ROOT, startCodeServer } from '../../scripts/test-host/server.mjs';
import { assert, cookieCatcher, createRunner, poll, slug, runSuite, workbench } from './lib.mjs';

function filesUnder(dir) {
  let out = [];
  let entries;
  try { entries = readdirSync(dir, { withFileTypes: true }); } catch { return out; }
  for (const e of entries) out = e.isDirectory() ? out.concat(filesUnder(join(dir, e.name))) : out.concat(join(dir, e.name));
  return out;
}

/** Trusts the opened folder the way a person does: the start-up dialog, else Manage Workspace Trust. */
async function trustFolder(page, wb) {
  const yes = page.getByRole('button', { name: /Yes, I trust the authors/ });
  if (await yes.waitFor({ timeout: 8000 }).then(() => true, () => false)) {
    await yes.click();
  } else {
    await wb.runCommand('Workspaces: Manage Workspace Trust');
    await page.getByRole('button', { name: /^Trust( Folder)?$/ }).first().click({ timeout: 20_000 });
  }
  await poll('Restricted Mode to end', async () => !(await page.locator('.statusbar').innerText()).includes('Restricted Mode'));
  // The trust editor opens as a modal editor: close it.
  const modal = page.locator('.monaco-modal-editor-block');
  await poll('the trust editor to close', async () => {
    if ((await modal.count()) === 0) return true;
    await modal.locator('.codicon-close, [aria-label^="Close"]').first().click({ timeout: 2000 }).catch(() => {});
    return false;
  }, 15_000, 500);
}

const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };

await runSuite('The demo tests', async ({ results, cleanups }) => {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  cleanups.push(() => browser.close());
  let page;
  const t = createRunner('npm run demo');

  t.step('the demo prints a URL of its own host name whose workbench shows both demo titles with keys; SIGINT stops everything', async () => {
    const demo = spawn(process.execPath, [join(REPO_ROOT, 'scripts', 'demo', 'demo.mjs')], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH: '/usr/bin:/bin' } });
    const exited = new Promise((r) => demo.once('exit', (c, s) => r(c ?? s)));
    cleanups.push(async () => { if (demo.exitCode === null && demo.signalCode === null) { demo.kill('SIGINT'); await exited; } });
    let out = '';
    demo.stdout.on('data', (d) => { out += d; });
    demo.stderr.on('data', (d) => { out += d; });
    const url = await poll('the demo URL', async () => out.match(/^\s+(http:\/\/pe-[0-9a-f]+\.localhost:\d+\/\?\S+)$/m)?.[1], 120_000, 250);
    const password = await poll('the password line', async () => out.match(/password \(valid until Ctrl\+C\): (\S+)$/m)?.[1], 10_000, 250);
    const emulatorPid = Number(out.match(/emulator \(pid (\d+)\)/)?.[1]);
    assert(emulatorPid > 0 && alive(emulatorPid), `the demo names its running emulator: ${out}`);
    assert(!out.includes('EMUDEMOKEY'), 'the demo prints no fixed demo key');
    const origin = new URL(url).origin;
    // The attack: any local user or a rebinding page asks for the workbench without the password.
    const anonymous = await loopbackRequest(url);
    assert(anonymous.status === 302 && /login/.test(anonymous.headers.location ?? ''), `the workbench without a login: HTTP ${anonymous.status}`);
    const guessed = await loopbackRequest(`${origin}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'password=wrong' });
    assert(!String(guessed.headers['set-cookie'] ?? '').includes('code-server-session'), 'a wrong password gets no session');
    // A person: the login page, the password, then the workbench.
    page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const wb = workbench(page);
    await page.goto(url);
    await page.locator('input[type="password"]').fill(password);
    await page.locator('input[type="password"]').press('Enter');
    await wb.waitReady();
    await trustFolder(page, wb);
    await wb.openActivity('Platform');
    await wb.waitTreeRowText('Demo Racer', /F71AC · key set · emulator/);
    await wb.waitTreeRowText('Demo Racer Arena', /A248 · key set · emulator/);
    // It says as many titles as it configures (three, not "two"): the log line and the walkthrough.
    await wb.waitTreeRowText('Kart Rivals', /C3A5E · key set · emulator/);
    assert(/the 3 demo titles, added with their keys: F71AC, A248, C3A5E/.test(out), `the demo names the titles it adds: ${out}`);
    // The demo's titles come with their keys: the walkthrough's first two steps are done.
    await wb.runCommand('Welcome: Open Walkthrough...');
    await wb.quickPick('Get started with Platform Explorer');
    const steps = page.locator('.gettingStartedContainer button.getting-started-step');
    await poll('the walkthrough\'s steps', async () => (await steps.count()) === 4);
    await poll('its first two steps checked off (a title, a key)', async () =>
      (await steps.nth(0).getAttribute('aria-checked')) === 'true' && (await steps.nth(1).getAttribute('aria-checked')) === 'true');
    await page.screenshot({ path: join(results, 'demo-walkthrough.png') });
    await wb.expandTreeRow('Demo Racer');
    await wb.waitTreeRowText('HandheldStore', /HandheldStore created/);
    const handover = out.match(/PLATFORM_EXPLORER_DEMO_FILE=(\S+)/)?.[1];
    assert(handover && !existsSync(handover), `the keys' hand-over file is named and deleted once read: ${handover}`);
    // Notifications show (the smoke-test driver, which hides them, is for tests only).
    await wb.runCommand('Platform: Export Deletion Jobs');
    await poll('an information toast', async () =>
      (await page.locator('.notification-toast .notification-list-item-message').allInnerTexts()).some((x) => /No deletion jobs are recorded/.test(x)));
    await page.screenshot({ path: join(results, 'demo.png') });
    // The session stays with the demo: another local listener this browser is sent to gets no cookie.
    const catcher = await cookieCatcher();
    cleanups.push(catcher.stop);
    for (const host of ['127.0.0.1', 'localhost']) await page.goto(`http://${host}:${catcher.port}/`);
    assert(catcher.seen.length >= 2 && catcher.seen.every((r) => !r.cookie.includes('code-server-session')), `the session cookie reached another listener: ${JSON.stringify(catcher.seen)}`);
    await page.close();
    page = undefined;
    demo.kill('SIGINT');
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running after 20 s'), 20_000))]);
    assert(code === 0, `the demo exits 0 on SIGINT: ${code}`);
    assert(!alive(emulatorPid), 'the emulator process is gone');
    const port = new URL(url).port;
    const answered = await fetch(`http://127.0.0.1:${port}/healthz`).then(() => true, () => false);
    assert(!answered, 'VS Code (code-server) no longer answers');
  });

  t.step('npm run demo stopped by the PID of npm: every process it started is gone; the demo keys stay readable until then', async () => {
    // npm in a process group of its own, as a person's terminal would run it; killed by its PID alone.
    const npm = spawn('npm', ['run', 'demo'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { ...process.env, PATH: `${dirname(process.execPath)}:/usr/bin:/bin` } });
    const exited = new Promise((r) => npm.once('exit', (c, s) => r(c ?? s)));
    let out = '';
    npm.stdout.on('data', (d) => { out += d; });
    npm.stderr.on('data', (d) => { out += d; });
    const descendants = () => {
      const rows = spawnSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' }).stdout.trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number));
      const found = [];
      for (let add = [npm.pid]; add.length > 0;) {
        add = rows.filter(([, ppid]) => add.includes(ppid)).map(([pid]) => pid);
        found.push(...add);
      }
      return found;
    };
    cleanups.push(async () => { for (const pid of [npm.pid, ...descendants()]) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } } });
    await poll('the demo URL', async () => /^\s+http:\/\/pe-[0-9a-f]+\.localhost:\d+\//m.test(out), 120_000, 250);
    // A key cleared in the demo can be restored: the file is named, private and holds each demo title's key.
    const keys = out.match(/the demo keys are in (\S+) \(mode 0600/)?.[1];
    assert(keys && (statSync(keys).mode & 0o077) === 0, `the demo keys' file is named and private: ${out}`);
    assert(/^F71AC \S{16,}$/m.test(readFileSync(keys, 'utf8')), 'the file holds Demo Racer\'s key');
    const started = descendants();
    assert(started.length >= 4, `npm, its shell, the demo, the emulator and VS Code: ${started}`);
    process.kill(npm.pid, 'SIGTERM');
    await exited;
    await poll('every process the demo started to end', async () => started.every((pid) => !alive(pid)), 20_000, 250);
    // Why it stops is said once, not once per half-second check while it stops.
    const gone = out.match(/the parent process \(\d+\) is gone/g) ?? [];
    assert(gone.length === 1, `"the parent process … is gone" printed ${gone.length} times: ${out}`);
    assert(!existsSync(keys), 'the demo keys are removed when the demo stops');
  });

  /** A workbench whose extension gets `demo` in a hand-over file of `mode`: the log says `why`, the tree stays empty. */
  async function refusedHandover(demo, mode, why) {
    const dir = mkdtempSync(join(tmpdir(), 'platform-demo-test-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'demo.json');
    writeFileSync(file, JSON.stringify(demo), { mode });
    const server = await startCodeServer({ env: { PLATFORM_EXPLORER_DEMO_FILE: file } });
    cleanups.push(() => server.stop());
    page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    await server.login(page);
    const wb = workbench(page);
    await page.goto(server.testUrl({ extensionDevelopmentPath: REPO_ROOT }));
    await wb.waitReady();
    await wb.openActivity('Platform');
    // The extension's log channel is also a file under the user data folder: read it there.
    const logText = await poll('the log to say why the demo setup was skipped', async () => {
      for (const f of filesUnder(join(server.runDir, 'ud', 'logs')).filter((x) => x.endsWith('Platform Explorer.log'))) {
        const text = readFileSync(f, 'utf8');
        if (text.includes(why)) return text;
      }
      return undefined;
    }, 30_000, 500);
    assert(!logText.includes('NOTAREALKEY1234567890'), 'the key is not in the log');
    await page.locator('.welcome-view-content', { hasText: 'No Platform titles yet' }).waitFor({ timeout: 10_000 });
    await page.close();
    page = undefined;
  }

  t.step('a hand-over file pointing away from this machine adds nothing', async () => {
    await refusedHandover({ endpoint: 'https://collector.example/{titleId}', titles: [{ titleId: 'F71AC', secretKey: 'NOTAREALKEY1234567890' }] },
      0o600, 'Demo setup skipped: The PLATFORM_EXPLORER_DEMO_FILE file\'s endpoint');
  });

  t.step('a hand-over file others can read adds nothing', async () => {
    await refusedHandover({ endpoint: 'http://127.0.0.1:9/{titleId}', titles: [{ titleId: 'F71AC', secretKey: 'NOTAREALKEY1234567890' }] },
      0o644, 'it must be mode 0600');
  });

  return {
    t,
    onFailure: async (title) => {
      if (page) await page.screenshot({ path: join(results, `failed-demo-${slug(title)}.png`) });
    },
  };
});
