#!/usr/bin/env node
// The packaged extension: `scripts/package/build.mjs` builds the VSIX (production bundles);
// this test checks its file list, installs it into the test VS Code with code-server's
// --install-extension (a normal installed extension, not development mode), and checks in
// the workbench that it activates and its view appears, then starts the local emulator and runs
// one lookup against it. Exit code 1 when any step fails. With PLATFORM_VSIX=FILE (npm run
// release:check) it tests that VSIX, already built, instead of packaging one.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { chromium } from 'playwright-core';
import { checkVsixEntries } from '../../scripts/package/check.mjs';
import { zipEntries } from '../../scripts/package/zip.mjs';
import { CODE_SERVER_ENTRY, NODE24_BIN } from '../../scripts/test-host/paths.mjs';
import { CHROMIUM, CHROMIUM_ARGS, REPO_ROOT, startCodeServer } from '../../scripts/test-host/server.mjs';
import { assert, createRunner, poll, slug, runSuite, workbench } from './lib.mjs';

await runSuite('The VSIX tests', async ({ results, cleanups }) => {
  const work = mkdtempSync(join(tmpdir(), 'platform-vsix-'));
  cleanups.push(async () => rmSync(work, { recursive: true, force: true }));
  const given = process.env.PLATFORM_VSIX;
  const vsix = given ?? join(work, 'platform-explorer.vsix');
  let server;
  let page;
  const t = createRunner('The VSIX, installed into the test VS Code');

  t.step(`${given ? `the VSIX ${basename(given)} holds` : 'npm run package builds a VSIX with'} only the bundles, media, README, CHANGELOG, LICENSE and package.json`, async () => {
    if (!given) {
      const r = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'package', 'build.mjs'), '--out', vsix], { cwd: REPO_ROOT, encoding: 'utf8' });
      assert(r.status === 0, `packaging succeeded:\n${r.stdout}\n${r.stderr}`);
    }
    const entries = zipEntries(vsix);
    console.log(`    ${entries.length} entries: ${entries.join(', ')}`);
    const problems = checkVsixEntries(entries);
    assert(problems.length === 0, `the VSIX holds exactly what it should: ${problems.join('; ')}`);
    // The check itself must be able to fail: a source file or a source map is refused.
    assert(checkVsixEntries([...entries, 'extension/src/extension/extension.ts']).length === 1, 'a source file would be reported');
    assert(checkVsixEntries([...entries, 'extension/dist/extension.js.map']).length === 1, 'a source map would be reported');
  });

  t.step('code-server --install-extension installs the VSIX into a fresh extensions folder', async () => {
    server = await startCodeServer({ settings: { 'window.commandCenter': false } });
    cleanups.push(() => server.stop());
    const r = spawnSync(NODE24_BIN, [CODE_SERVER_ENTRY, '--install-extension', vsix,
      '--extensions-dir', join(server.runDir, 'ext'), '--user-data-dir', join(server.runDir, 'ud')], {
      encoding: 'utf8', timeout: 120_000,
      env: {
        ...process.env, HOME: join(server.runDir, 'home'), TMPDIR: join(server.runDir, 'tmp'),
        XDG_CONFIG_HOME: join(server.runDir, 'xdg', 'config'), XDG_DATA_HOME: join(server.runDir, 'xdg', 'data'),
        XDG_CACHE_HOME: join(server.runDir, 'xdg', 'cache'), EXTENSIONS_GALLERY: '{}',
      },
    });
    assert(r.status === 0, `--install-extension succeeded: ${r.stdout}\n${r.stderr}`);
    assert(/successfully installed/i.test(r.stdout), `code-server reports the install: ${r.stdout.trim()}`);
    const installed = readdirSync(join(server.runDir, 'ext')).filter((d) => d.startsWith('platform-explorer.platform-explorer-'));
    assert(installed.length === 1, `the extension is in the extensions folder: ${readdirSync(join(server.runDir, 'ext')).join(', ')}`);
    console.log(`    installed: ${installed[0]}`);
  });

  t.step('the installed extension activates on startup and its Platform view appears', async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    cleanups.push(() => browser.close());
    page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    await server.login(page);
    const wb = workbench(page);
    await page.goto(server.workbenchUrl()); // a plain window: no development extension
    await wb.waitReady();
    const title = await page.title();
    assert(!title.includes('Extension Development Host'), `not a development host: ${title}`);
    await wb.openActivity('Platform');
    await page.locator('.welcome-view-content', { hasText: 'No Platform titles yet' }).waitFor({ timeout: 20_000 });
    await wb.runCommand('Developer: Show Running Extensions');
    const row = page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: 'Platform Explorer' });
    // The list is virtual and sorted by activation time: scroll until our row is rendered.
    await poll('Platform Explorer among the running extensions', async () => {
      if (await row.isVisible()) return true;
      await page.locator('.runtime-extensions-editor .monaco-list').hover();
      await page.mouse.wheel(0, 200);
      return false;
    }, 20_000, 300);
    const text = await poll('an activation time for Platform Explorer', async () => {
      const s = (await row.innerText()).replace(/\s+/g, ' ');
      return /Activation: \d+ ?ms/.test(s) ? s : undefined;
    });
    console.log(`    running extensions: ${text.slice(0, 160)}`);
    await page.screenshot({ path: join(results, 'vsix-installed.png') });
  });

  t.step('the installed extension loads its lazily loaded bundles: Start Local Emulator, then HandheldStore read over HTTP', async () => {
    const wb = workbench(page);
    await wb.runCommand('View: Close All Editors');
    await wb.runCommand('Platform: Start Local Emulator');
    await wb.waitNotification(/Local emulator started at http:\/\/127\.0\.0\.1:\d+; titles ready: Demo Racer \(F71AC\), Demo Racer Arena \(A248\)/);
    await wb.openActivity('Platform');
    await wb.waitTreeRowText('Demo Racer', /F71AC · key set · emulator/);
    await wb.expandTreeRow('Demo Racer');
    await wb.waitTreeRowText('HandheldStore', /HandheldStore created/);
    await page.screenshot({ path: join(results, 'vsix-emulator.png') });
  });

  t.step('one lookup against that emulator: Look Up PlatformIds from Storefront Names finds the demo player', async () => {
    const wb = workbench(page);
    // The active title, picked in the status bar: the lookup then asks no title.
    await page.locator('.statusbar-item', { hasText: /· local emulator/ }).first().click();
    await wb.quickInputTitled('Which title?');
    await wb.quickPick(/^Demo Racer$/);
    await page.mouse.move(400, 300);
    await wb.runCommand('Platform: Look Up PlatformIds from Storefront Names');
    const names = await wb.quickInputTitled('Look Up PlatformIds from Storefront Names');
    await names.fill('racer_ana_0');
    await page.keyboard.press('Enter');
    const tab = page.locator('.tab', { hasText: /Demo Racer \(F71AC\) Storefront lookup .* UTC\.json/ }).first();
    await tab.waitFor({ timeout: 20_000 });
    await tab.click();
    const text = await poll('the lookup result', async () => {
      const s = await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().innerText();
      return s.includes('racer_ana_0') && /[0-9A-F]{16}/.test(s) ? s : undefined;
    });
    console.log(`    result: ${text.replace(/\s+/g, ' ').slice(0, 160)}`);
    await page.screenshot({ path: join(results, 'vsix-lookup.png') });
  });

  return {
    t,
    onFailure: async (title) => {
      if (page) await page.screenshot({ path: join(results, `failed-vsix-${slug(title)}.png`) });
    },
  };
});
