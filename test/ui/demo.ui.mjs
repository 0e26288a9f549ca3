#!/usr/bin/env node
// `npm run demo` end to end: the script prints a 127.0.0.1 URL, the workbench there shows the
// demo titles with their keys, and SIGINT stops the emulator and VS Code. Also: the
// extension ignores a PLATFORM_EXPLORER_DEMO whose endpoint is not on this machine.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, REPO_ROOT, startCodeServer } from '../../scripts/test-host/server.mjs';
import { assert, createRunner, poll, slug, runSuite, workbench } from './lib.mjs';

function filesUnder(dir) {
  let out = [];
  let entries = [];
  try { entries = readdirSync(dir, { withFileTypes: true }); } catch { return out; }
  for (const e of entries) out = e.isDirectory() ? out.concat(filesUnder(join(dir, e.name))) : out.concat(join(dir, e.name));
  return out;
}

const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };

await runSuite('The demo tests', async ({ results, cleanups }) => {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  cleanups.push(() => browser.close());
  let page;
  const t = createRunner('npm run demo');

  t.step('the demo prints a 127.0.0.1 URL whose workbench shows both demo titles with keys; SIGINT stops everything', async () => {
    const demo = spawn(process.execPath, [join(REPO_ROOT, 'scripts', 'demo', 'demo.mjs')], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH: '/usr/bin:/bin' } });
    const exited = new Promise((r) => demo.once('exit', (c, s) => r(c ?? s)));
    cleanups.push(async () => { if (demo.exitCode === null && demo.signalCode === null) { demo.kill('SIGINT'); await exited; } });
    let out = '';
    demo.stdout.on('data', (d) => { out += d; });
    demo.stderr.on('data', (d) => { out += d; });
    const url = await poll('the demo URL', async () => out.match(/^\s+(http:\/\/127\.0\.0\.1:\d+\/\?\S+)$/m)?.[1], 120_000, 250);
    const emulatorPid = Number(out.match(/emulator \(pid (\d+)\)/)?.[1]);
    assert(emulatorPid > 0 && alive(emulatorPid), `the demo names its running emulator: ${out}`);
    page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const wb = workbench(page);
    await page.goto(url);
    await wb.waitReady();
    await wb.openActivity('Platform');
    await wb.waitTreeRowText('Demo Racer', /F71AC · key set · emulator/);
    await wb.waitTreeRowText('Demo Racer Arena', /A248 · key set · emulator/);
    await wb.treeRow('Demo Racer').click();
    await wb.waitTreeRowText('HandheldStore', /HandheldStore created/);
    await page.screenshot({ path: join(results, 'demo.png') });
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

  t.step('a PLATFORM_EXPLORER_DEMO pointing away from this machine adds nothing', async () => {
    const env = { PLATFORM_EXPLORER_DEMO: JSON.stringify({ endpoint: 'https://collector.example/{titleId}', titles: [{ titleId: 'F71AC', secretKey: 'NOTAREALKEY1234567890' }] }) };
    const server = await startCodeServer({ env });
    cleanups.push(() => server.stop());
    page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const wb = workbench(page);
    await page.goto(server.testUrl({ extensionDevelopmentPath: REPO_ROOT }));
    await wb.waitReady();
    await wb.openActivity('Platform');
    // The extension's log channel is also a file under the user data folder: read it there.
    const logText = await poll('the log to say why the demo setup was skipped', async () => {
      for (const f of filesUnder(join(server.runDir, 'ud', 'logs')).filter((x) => x.endsWith('Platform Explorer.log'))) {
        const text = readFileSync(f, 'utf8');
        if (text.includes('Demo setup skipped: PLATFORM_EXPLORER_DEMO.endpoint')) return text;
      }
      return undefined;
    }, 30_000, 500);
    assert(!logText.includes('NOTAREALKEY1234567890'), 'the key is not in the log');
    await page.locator('.welcome-view-content', { hasText: 'No Platform titles yet' }).waitFor({ timeout: 10_000 });
  });

  return {
    t,
    onFailure: async (title) => {
      if (page) await page.screenshot({ path: join(results, `failed-demo-${slug(title)}.png`) });
    },
  };
});
