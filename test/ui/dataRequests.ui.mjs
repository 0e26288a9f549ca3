#!/usr/bin/env node
// The Data Requests view in the real workbench (code-server + Chromium): Start Local Emulator,
// New Data Request… from F1 with a request received long ago (the real quick inputs), Run from
// the request's context menu (the dry run opens, the real modal, Send): the view shows it overdue,
// in the warning colour, with its accounts and actions and a badge. Screenshots go to
// test-results/ui/ (data-requests*.png).
//
// Usage: node test/ui/dataRequests.ui.mjs   (after `node esbuild.mjs` and scripts/test-host/install.mjs)
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, startCodeServer } from '../../scripts/test-host/server.mjs';
import { assert, createRunner, openWorkbench, poll, slug, runSuite } from './lib.mjs';

const REFERENCE = 'PRIVACY-1009';
const RECEIVED = '2026-09-01';

await runSuite('The Data Requests view tests', async ({ results, cleanups }) => {
  const folder = mkdtempSync(join(tmpdir(), 'platform-ui-dsr-'));
  const store = mkdtempSync(join(tmpdir(), 'platform-ui-dsr-store-'));
  cleanups.push(async () => { rmSync(folder, { recursive: true, force: true }); rmSync(store, { recursive: true, force: true }); });
  // Machine scope: the setting is read from the server's machine settings, as a person sets it in Remote settings.
  // Start Local Emulator takes its control token from the extension host's environment: this test reads players with it.
  const controlToken = randomBytes(24).toString('hex');
  const server = await startCodeServer({ env: { PLATFORM_EMULATOR_CONTROL_TOKEN: controlToken }, folder, settings: { 'window.commandCenter': false }, machineSettings: { 'platformExplorer.dataRequests.folder': store } });
  cleanups.push(() => server.stop());
  const { page, wb, shot } = await openWorkbench(server, results, cleanups);
  const pane = () => page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Data Requests' }) });
  let origin;

  const t = createRunner('The Data Requests view in the real workbench (code-server + Chromium)');

  t.step('the view is in the Platform container; with no request it says what a request is and offers New Data Request…', async () => {
    await page.goto(server.testUrl({ extensionDevelopmentPath: REPO_ROOT }));
    await wb.waitReady();
    await wb.openActivity('Platform');
    await wb.sideBarWidth(620);
    await wb.runCommand('Platform: Start Local Emulator');
    // The first start on a busy machine takes a while: wait for its titles before the notification.
    await poll('the demo titles', async () => /F71AC · key set/.test(await wb.treeRowText('Demo Racer').catch(() => '')), 90_000, 500);
    const started = await wb.waitNotification(/Local emulator started at http:\/\/127\.0\.0\.1:\d+/);
    origin = started.match(/http:\/\/127\.0\.0\.1:\d+/)[0];
    await wb.clearNotifications();
    const welcome = await poll('the welcome content', async () => {
      const text = await pane().locator('.welcome-view-content').innerText().catch(() => '');
      return text.includes('No data requests yet') ? text : undefined;
    });
    assert(/New Data Request/.test(welcome), `the welcome offers the command: ${welcome}`);
  });

  t.step('New Data Request… from F1: identifiers typed, asks picked, a received date long ago, the reference', async () => {
    const players = await fetch(`${origin}/_emulator/players`, { headers: { authorization: `Bearer ${controlToken}` } }).then((r) => r.json());
    const person = players.players.find((p) => p.email && p.storefrontNames?.length);
    assert(person, `a demo person with an e-mail and a Storefront name: ${JSON.stringify(players).slice(0, 300)}`);
    await wb.runCommand('Platform: New Data Request…');
    const ids = await wb.quickInputTitled('Identifiers of the person');
    await ids.fill(`email:${person.email}, storefront:${person.storefrontNames[0]}`);
    await page.keyboard.press('Enter');
    await wb.quickInputTitled('What did the person ask for?');
    for (const [i, label] of ['Access', 'Erasure'].entries()) {
      const box = wb.quickInput.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) }).first().locator('input[type="checkbox"], .monaco-checkbox, .quick-input-list-checkbox').first();
      // A click the list takes as focus only does not tick: click until the count says it did.
      await poll(`${label} ticked`, async () => {
        if ((await wb.quickInput.innerText()).includes(`${i + 1} Selected`)) return true;
        await box.click();
        return false;
      }, 10_000, 400);
    }
    await wb.quickInput.getByRole('button', { name: 'OK' }).click();
    const date = await wb.quickInputTitled('Date the request was received');
    await date.fill(RECEIVED);
    await page.keyboard.press('Enter');
    const ref = await wb.quickInputTitled('Ticket reference');
    await ref.fill(REFERENCE);
    await page.keyboard.press('Enter');
    await wb.waitTreeRowText(REFERENCE, /received · due 2026-10-01, overdue by \d+ days/);
    assert(readdirSync(store).some((n) => n.startsWith('dr-20260901-')), `the request's folder is in the folder of the setting: ${readdirSync(store)}`);
  });

  t.step('Run from the request\'s context menu: the dry run opens, the count and reference are typed beside it, then the modal names the act; the view shows it overdue with its accounts and a badge', async () => {
    await wb.contextMenu(wb.treeRow(REFERENCE), 'Run Data Request…');
    // The batch's order: a step that is not modal first (the dry run stays readable), then the modal.
    // It comes after the dry run's lookups (three titles, each a few requests to the emulator):
    // on a loaded machine that is more than the usual 20 s.
    const typed = await wb.quickInputTitled(`for data request ${REFERENCE}?`, 60_000);
    const prompt = (await wb.quickInput.innerText()).replace(/\s+/g, ' ');
    const expected = /type "(\d+ [^"]+)"/.exec(prompt)?.[1];
    assert(expected !== undefined, `the typed step says what to type: ${prompt}`);
    await typed.fill(expected);
    await page.keyboard.press('Enter');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 30_000 });
    const said = (await dialog.innerText()).replace(/\s+/g, ' ');
    assert(said.includes(`for data request ${REFERENCE}?`), `the dialog names the request: ${said}`);
    assert(!/\bSend\b/.test(said), `no "Send" button: the button names the act: ${said}`);
    await dialog.getByRole('button', { name: /^Export \d+ Accounts?$/ }).click();
    await dialog.waitFor({ state: 'detached', timeout: 20_000 });
    await wb.waitTreeRowText(REFERENCE, /actions queued · due 2026-10-01, overdue by \d+ days/);
    const tab = await page.locator('.tabs-container .tab').allInnerTexts();
    assert(tab.some((x) => x.includes('dry run')), `the dry run opened in a tab: ${tab}`);
    await wb.clearNotifications();
    // Expanded: its accounts, each with its actions.
    const row = wb.treeRow(REFERENCE);
    if ((await row.getAttribute('aria-expanded')) !== 'true') await row.locator('.monaco-tl-twistie').click();
    const accounts = await poll('the accounts under the request', async () => {
      const labels = (await pane().locator('.monaco-list-row[role="treeitem"] .label-name').allInnerTexts()).map((s) => s.trim());
      return labels.filter((l) => /^[0-9A-F]{14,16}$/.test(l)).length > 0 && labels.includes('Export') ? labels : undefined;
    });
    assert(accounts.includes('Erasure'), `each account shows its actions: ${accounts}`);
    // A selected row takes the list's selection colours, whatever its own: clear the selection as
    // a user would (Escape in the view) and compare rows that are not selected. Whether the row is
    // selected when the dry run opens depends on where the focus was (a click on the twistie above).
    await pane().locator('.monaco-list').first().focus();
    await page.keyboard.press('Escape');
    await poll('no row selected in the Data Requests view', async () => (await pane().locator('.monaco-list-row.selected').count()) === 0);
    const colours = async () => ({
      color: await row.locator('.label-name').evaluate((e) => getComputedStyle(e).color),
      plain: await pane().locator('.monaco-list-row[role="treeitem"]', { hasText: 'Export' }).first().locator('.label-name').evaluate((e) => getComputedStyle(e).color),
    });
    const seen = await poll('the overdue request in its own colour', async () => { const c = await colours(); return c.color !== c.plain ? c : undefined; })
      .catch(async () => colours());
    assert(seen.color !== seen.plain, `the overdue request is in another colour than its children (${seen.color} vs ${seen.plain})`);
    const badge = await poll('the view\'s badge', async () => {
      const text = await page.locator('.activitybar .badge .badge-content, .pane-header .badge .badge-content').allInnerTexts();
      return text.map((s) => s.trim()).find((s) => s === '1');
    });
    assert(badge === '1', 'one overdue request in the badge');
    const header = await pane().locator('.pane-header').innerText();
    assert(/\b1 overdue\b/.test(header) && !/due this week/.test(header), `the view says how many are overdue: ${header}`);
    await page.mouse.move(5, 5);
    await shot('data-requests');
  });

  return { t, onFailure: async (title) => { await page.screenshot({ path: join(results, `failed-data-requests-${slug(title)}.png`) }).catch(() => {}); } };
});
