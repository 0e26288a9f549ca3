#!/usr/bin/env node
// The Emulator Requests view in the real workbench (code-server + Chromium): Start Local Emulator,
// expand a title (its GetEntityToken and GetHandheldStore requests), the view lists them live;
// its Filter narrows them; a click opens an entry as JSON with the token masked. Screenshots go
// to test-results/ui/ (emulator-requests*.png).
//
// Usage: node test/ui/emulatorRequests.ui.mjs   (after `node esbuild.mjs` and scripts/test-host/install.mjs)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, startCodeServer } from '../../scripts/test-host/server.mjs';
import { assert, createRunner, openWorkbench, poll, slug, runSuite } from './lib.mjs';

await runSuite('The Emulator Requests view tests', async ({ results, cleanups }) => {
  const folder = mkdtempSync(join(tmpdir(), 'platform-ui-requests-'));
  cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
  const server = await startCodeServer({ folder, settings: { 'window.commandCenter': false } });
  cleanups.push(() => server.stop());
  const { page, wb, shot } = await openWorkbench(server, results, cleanups);
  const rowsOf = () => page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Emulator Requests' }) }).locator('.monaco-list-row[role="treeitem"]');
  const labels = async () => (await rowsOf().locator('.label-name').allInnerTexts()).map((s) => s.trim());

  const t = createRunner('The Emulator Requests view in the real workbench (code-server + Chromium)');

  t.step('Start Local Emulator, expand a title: the view lists its requests live, newest first, with title and time', async () => {
    await page.goto(server.testUrl({ extensionDevelopmentPath: REPO_ROOT }));
    await wb.waitReady();
    await wb.openActivity('Platform');
    await wb.sideBarWidth(520);
    await wb.runCommand('Platform: Start Local Emulator');
    await wb.waitNotification(/Local emulator started at http:\/\/127\.0\.0\.1:\d+/);
    await wb.clearNotifications();
    // The view starts collapsed: open it from its header.
    await page.locator('.pane-header', { hasText: 'Emulator Requests' }).first().click();
    await wb.waitTreeRowText('Demo Racer', /F71AC · key set · emulator/);
    await wb.expandTreeRow('Demo Racer');
    // The rows of Demo Racer's own requests ("<status> <operation> <title> · <ms> · <time>"): a
    // request of another title (a click that landed on another row while the tree re-rendered) is not one.
    const racerRows = async () => {
      const texts = await rowsOf().evaluateAll((rows) => rows.map((r) => `${r.querySelector('.label-name')?.textContent ?? ''} ${r.querySelector('.label-description')?.textContent ?? ''}`));
      return texts.map((x) => x.replace(/\s+/g, ' ').trim()).filter((x) => / F71AC · /.test(x));
    };
    const shown = await poll('Demo Racer\'s requests in the view', async () => {
      const l = await racerRows();
      return l.some((x) => x.startsWith('200 Addon/GetHandheldStore ')) && l.some((x) => x.startsWith('200 Authentication/GetEntityToken ')) ? l : undefined;
    });
    const at = (prefix) => shown.findIndex((x) => x.startsWith(prefix));
    assert(at('200 Addon/GetHandheldStore ') < at('200 Authentication/GetEntityToken '), `newest first: ${shown}`);
    const row = shown[at('200 Addon/GetHandheldStore ')];
    assert(/^200 Addon\/GetHandheldStore F71AC · \d+ ms · \d\d:\d\d:\d\d$/.test(row), `the row shows title, duration and time: ${row}`);
    await shot('emulator-requests');
  });

  t.step('Filter keeps the matching rows; a click opens the entry as JSON with its token masked', async () => {
    const header = page.locator('.pane-header', { hasText: 'Emulator Requests' }).first();
    await header.hover();
    await header.getByRole('button', { name: 'Filter Emulator Requests' }).click();
    const input = await wb.quickInputTitled('Filter Emulator Requests');
    await input.fill('GetEntityToken');
    await page.keyboard.press('Enter');
    await poll('the filtered rows', async () => {
      const l = await labels();
      return l.length > 0 && l.every((x) => x.endsWith('Authentication/GetEntityToken'));
    });
    await wb.treeRow('200 Authentication/GetEntityToken').click();
    const text = await poll('the entry opened as a JSON document', async () => {
      const t = await page.locator('.editor-instance .view-lines').first().innerText().catch(() => '');
      return t.includes('"operation"') ? t.replace(/\u00a0/g, ' ') : undefined;
    });
    assert(/"EntityToken": "\*\*\*"/.test(text), `the token is masked in the document: ${text.slice(0, 400)}`);
    // A read-only result named for the entry, not Untitled-1 (which asks to be saved on close).
    const tab = ((await page.locator('.tab.active').first().textContent()) ?? '').replace(/\s+/g, ' ');
    assert(/Emulator request \d+ GetEntityToken \d{4}-\d\d-\d\d [\d.]+ UTC\.json/.test(tab), `the tab is named for the entry: "${tab}"`);
    assert(/"credential": "secretKey"/.test(text), 'the credential kind is shown, not its value');
    await shot('emulator-requests-open');
  });

  return { t, onFailure: async (title) => { await page.screenshot({ path: join(results, `failed-emulator-requests-${slug(title)}.png`) }).catch(() => {}); } };
});
