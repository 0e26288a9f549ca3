#!/usr/bin/env node
// UI tests in the real workbench: code-server's VS Code in headless Debian Chromium, driven
// the way a person works (activity bar, real quick inputs, context menus, the modal dialog,
// the panels). Screenshots go to test-results/ui/. Exit code 1 when any step fails.
//
// Usage: node test/ui/workbench.ui.mjs   (after `node esbuild.mjs` and scripts/test-host/install.mjs)
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, startCodeServer } from '../../scripts/test-host/server.mjs';
import { assert, createRunner, openWorkbench, poll, slug, startEmulatorProcess, runSuite } from './lib.mjs';

const RACER = { titleId: 'F71AC', name: 'Demo Racer' };
const ARENA = { titleId: 'A248', name: 'Demo Racer Arena' };
// A linked demo player (seed.ts: player 0 has this Storefront name and a launcher subject,
// and has played both demo titles).
const PLAYER = { storefrontName: 'racer_ana_0', launcherSubject: 'launcher-user-0000' };
/** The name of that player's Storefront lookup result. */
const RESULT_NAME = /Demo Racer \(F71AC\) Storefront lookup .* UTC\.json/;

/**
 * The HandheldStore environments of a demo title as the emulator's seed builds them
 * (seed.ts defaultAddons): the panel must show each ClientID and never a ClientSecret.
 */
function seededHandheldEnvironments(titleId) {
  return [[1, 'prod'], [2, 'cert'], [1, 'sub']].map(([n, kind]) => ({
    clientId: `${titleId.toLowerCase()}-${kind}-client-${n}`,
    clientSecret: createHash('sha256').update(`${titleId}-${kind}-${n}-secret`).digest('base64url'),
  }));
}

await runSuite('The UI tests', async ({ results, cleanups }) => {
  const emulator = await startEmulatorProcess();
  cleanups.push(() => emulator.stop());
  const racerKey = emulator.titles.find((t) => t.titleId === RACER.titleId).secretKey;

  // A PlatformId the emulator knows, asked from the service API itself (the seed's IDs are hashes).
  const lookup = await fetch(emulator.endpoint.replace('{titleId}', RACER.titleId) + '/Server/GetPlatformIDsFromStorefrontNames', {
    method: 'POST', headers: { 'content-type': 'application/json', 'X-SecretKey': racerKey },
    body: JSON.stringify({ StorefrontNames: [PLAYER.storefrontName] }),
  }).then((r) => r.json());
  const platformId = lookup.data.Data[0].PlatformId;
  assert(/^[0-9A-F]{14,16}$/.test(platformId), `the emulator returned a PlatformId for ${PLAYER.storefrontName}: ${JSON.stringify(lookup)}`);

  // Four demo players who played Demo Racer (seed.ts: players 0, 1, 3 and 4), for a list file.
  const listed = await fetch(emulator.endpoint.replace('{titleId}', RACER.titleId) + '/Server/GetPlatformIDsFromStorefrontNames', {
    method: 'POST', headers: { 'content-type': 'application/json', 'X-SecretKey': racerKey },
    body: JSON.stringify({ StorefrontNames: ['racer_ana_0', 'racer_bo_1', 'racer_dee_3', 'racer_eli_4'] }),
  }).then((r) => r.json());
  const listIds = listed.data.Data.map((e) => e.PlatformId);
  assert(listIds.length === 4 && listIds.every((id) => /^[0-9A-F]{14,16}$/.test(id)), `four PlatformIds for the list file: ${JSON.stringify(listed)}`);

  const folder = mkdtempSync(join(tmpdir(), 'platform-ui-'));
  cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
  writeFileSync(join(folder, 'support-ticket.md'), [
    '# Support ticket 4711',
    '',
    'The player asked us to check which of our games they played.',
    `PlatformId: ${platformId}`,
    'Build 1234, reported 2025-01-06.',
    '',
  ].join('\n'));

  writeFileSync(join(folder, 'players.txt'), listIds.join('\n') + '\n');

  const server = await startCodeServer({ folder, settings: {
    'window.commandCenter': false,
    // The fixture is six lines: with nothing to scroll, Playwright's scroll-into-view before a
    // click cannot move the line with the PlatformId under the sticky header.
    'editor.scrollBeyondLastLine': false, 'editor.stickyScroll.enabled': false, 'editor.minimap.enabled': false,
  } });
  cleanups.push(() => server.stop());
  const { page, wb, shot } = await openWorkbench(server, results, cleanups);

  const t = createRunner('UI tests in the real workbench (code-server + Chromium)');

  t.step('the workbench loads with the extension and the Platform view opens from the activity bar', async () => {
    await page.goto(server.testUrl({ extensionDevelopmentPath: REPO_ROOT }));
    await wb.waitReady();
    await wb.openActivity('Platform');
    const welcome = page.locator('.welcome-view-content', { hasText: 'No Platform titles yet' });
    await welcome.waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Add Title' }).first().waitFor();
    await wb.sideBarWidth(440);
    await shot('01-welcome');
  });

  t.step('the welcome view\'s settings link opens the scope where the machine-scoped endpoint can be set', async () => {
    // code-server is a remote window: the endpoint setting lives under Remote, not User.
    await page.locator('.welcome-view-content').getByRole('button', { name: 'settings' }).or(page.locator('.welcome-view-content a', { hasText: /^settings$/ })).first().click();
    const editor = page.locator('.settings-editor');
    await editor.waitFor({ timeout: 20_000 });
    await poll('the Service Endpoint setting in the settings editor', async () => {
      const text = await editor.innerText();
      return text.includes('Service Endpoint') && !text.includes('No Settings Found');
    });
    await wb.runCommand('View: Close All Editors');
    await poll('the settings editor to close', async () => (await page.locator('.tabs-container .tab').count()) === 0);
    await wb.openActivity('Platform');
  });

  t.step('Add Title through the real quick inputs: title ID (checked as typed), name, emulator profile, endpoint', async () => {
    // The view's title bar action (the + button), not the welcome button.
    const titlesHeader = page.locator('.pane-header', { hasText: 'Titles' }).first();
    await titlesHeader.hover();
    await titlesHeader.getByRole('button', { name: 'Add Title' }).click();
    const id = await wb.quickInputTitled('Add Title (1/4): title ID');
    const promptText = await poll('the input\'s prompt', () => wb.quickInputMessage());
    await id.fill('NOT-HEX');
    const bad = await poll('the title ID validation message', async () => {
      const m = await wb.quickInputMessage();
      return m && m !== promptText && m.includes('NOT-HEX') ? m : undefined;
    });
    await shot('02-add-title-validation');
    await id.fill(RACER.titleId);
    await poll('the validation message to clear', async () => (await wb.quickInputMessage()) === promptText);
    await page.keyboard.press('Enter');
    const name = await wb.quickInputTitled('Add Title (2/4): display name');
    assert((await name.inputValue()) === RACER.titleId, 'the name is prefilled with the title ID');
    await name.fill(RACER.name);
    await page.keyboard.press('Enter');
    await wb.quickInputTitled('Add Title (3/4): where are its requests sent?');
    await wb.quickPick('Local emulator');
    const endpoint = await wb.quickInputTitled('Add Title (4/5): emulator endpoint');
    await endpoint.fill(emulator.endpoint);
    await page.keyboard.press('Enter');
    const key = await wb.quickInputTitled('Add Title (5/5): secret key (optional)');
    assert((await key.getAttribute('type')) === 'password', 'the secret key input is a password input');
    await page.keyboard.press('Enter'); // no key yet: set it with Set Secret Key next
    const row = await wb.waitTreeRowText(RACER.name, /F71AC · no key · emulator/);
    console.log(`    tree: ${row}`);
    console.log(`    validation said: ${bad}`);
  });

  t.step('Set Secret Key from the title\'s context menu: a password input, then the tree says "key set"', async () => {
    await wb.contextMenu(wb.treeRow(RACER.name), 'Set Secret Key');
    const input = await wb.quickInputTitled(`Set the secret key of ${RACER.name} (${RACER.titleId})`);
    assert((await input.getAttribute('type')) === 'password', 'the secret key input is a password input');
    await input.fill(racerKey);
    await shot('03-set-secret-key');
    const typed = await page.locator('.quick-input-widget').innerText();
    assert(!typed.includes(racerKey), 'the typed key is not shown as text');
    await page.keyboard.press('Enter');
    await wb.waitTreeRowText(RACER.name, /F71AC · key set · emulator/);
    await wb.waitNotification(/Secret key saved for Demo Racer \(F71AC\)/);
  });

  t.step('expand the title: HandheldStore read live, MobileStore, ConsoleNetB, Deletion Jobs', async () => {
    await wb.expandTreeRow(RACER.name);
    await wb.waitTreeRowText('HandheldStore', /HandheldStore created/);
    await wb.waitTreeRowText('MobileStore', /MobileStore/);
    await wb.waitTreeRowText('ConsoleNetB', /ConsoleNetB/);
    await wb.waitTreeRowText('Deletion Jobs', /Deletion Jobs none/);
    await shot('04-tree-expanded');
  });

  t.step('the HandheldStore panel shows the environments as tables and no ClientSecret', async () => {
    await wb.treeRow('HandheldStore').click();
    const envs = seededHandheldEnvironments(RACER.titleId);
    const frame = await wb.webviewWith(envs[0].clientId);
    const text = await frame.locator('body').innerText();
    const html = await frame.content();
    for (const h of ['HandheldStore configuration', `${RACER.name} (${RACER.titleId})`, 'ApplicationID', 'Environments', 'SubscriptionEnvironments', 'SecondarySubscriptionEnvironments']) {
      assert(text.includes(h), `the panel shows "${h}"`);
    }
    for (const e of envs) {
      assert(text.includes(e.clientId), `the panel lists ClientID ${e.clientId}`);
      assert(!html.includes(e.clientSecret), 'the ClientSecret value is nowhere in the panel');
    }
    assert(!/ClientSecret/i.test(html), 'no ClientSecret member in the panel');
    assert((await frame.locator('table').count()) >= 2, 'the environments are tables');
    await wb.clearNotifications();
    await shot('05-handheldstore-panel');
  });

  t.step('Test Launcher Login from the context menu; the Login Result panel masks EntityToken and SessionTicket', async () => {
    const { IdentityToken } = await emulator.control('POST', 'launcher-token', { titleId: RACER.titleId, subject: PLAYER.launcherSubject });
    await wb.contextMenu(wb.treeRow(RACER.name), 'Test Launcher Login');
    // An emulator title offers to mint a token; this step pastes one to check the password input.
    await wb.quickPick('Paste an IdentityToken');
    const tokenInput = await wb.quickInputTitled('IdentityToken');
    // The pick and the input share the step's title: wait for the input itself.
    await poll('the IdentityToken input, a password input', async () => (await tokenInput.getAttribute('type')) === 'password');
    await tokenInput.fill(IdentityToken);
    await page.keyboard.press('Enter');
    await wb.quickInputTitled('CreateAccount');
    await wb.quickPick('Sign in only');
    await wb.quickInputTitled('InfoRequestParameters');
    for (const flag of ['GetPlayerProfile', 'GetUserVirtualCurrency']) {
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: flag }).first().locator('input[type="checkbox"], .monaco-checkbox, .quick-input-list-checkbox').first().click();
    }
    await poll('three flags selected', async () => (await page.locator('.quick-input-widget').innerText()).includes('3 Selected'));
    await shot('06-login-flags');
    await page.locator('.quick-input-widget').getByRole('button', { name: 'OK' }).click();
    await wb.quickInputTitled('ProfileConstraints');
    await page.locator('.quick-input-widget').getByRole('button', { name: 'OK' }).click();
    await wb.quickInputTitled('CustomTags');
    await page.locator('.quick-input-box input').fill('build=1234');
    await page.keyboard.press('Enter');
    const frame = await wb.webviewWith('SessionTicket');
    await poll('the login result to render', async () => (await frame.locator('body').innerText()).includes('EntityToken'));
    const text = await frame.locator('body').innerText();
    for (const h of ['NewlyCreated', platformId, 'LastLoginTime', 'SessionTicket', 'EntityToken', 'TokenExpiration', 'PlayerProfile', 'UserVirtualCurrency']) {
      assert(text.includes(h), `the Login Result panel shows "${h}"`);
    }
    for (const field of ['SessionTicket', 'EntityToken']) {
      const code = frame.locator('dt', { hasText: new RegExp(`^${field}$`) }).locator('xpath=following-sibling::dd[1]').locator('code');
      // What a person sees (the screen reader's words are in a visually hidden span of their own).
      const value = await code.evaluate((el) => [...el.childNodes].filter((n) => !(n instanceof Element && n.classList.contains('visually-hidden'))).map((n) => n.textContent).join(''));
      assert(/^•{8}.{0,4}$/.test(value), `${field} is shown masked (•••••••• and at most 4 characters): "${value}"`);
      const spoken = await code.locator('.visually-hidden').innerText();
      assert(/^masked/.test(spoken.trim()), `${field} is read as masked: "${spoken}"`);
    }
    // The real token strings must not be anywhere in the page: no identity token, no secret
    // key, and no long token-like run of characters (session tickets and entity tokens are those).
    const everything = [await page.content(), ...(await Promise.all(page.frames().map((f) => f.content().catch(() => ''))))].join('\n');
    assert(!everything.includes(IdentityToken), 'the IdentityToken is nowhere in the page');
    assert(!everything.includes(racerKey), 'the secret key is nowhere in the page');
    const tokenLike = text.match(/[A-Za-z0-9_\-+/=.]{40,}/g) ?? [];
    assert(tokenLike.length === 0, `no token-like strings in the panel text: ${tokenLike.map((x) => x.slice(0, 8) + '…').join(', ')}`);
    await wb.clearNotifications();
    await shot('07-login-result-panel');
  });

  t.step('the Login Result panel\'s Open as JSON opens a document named for the result, not Untitled-1', async () => {
    const frame = await wb.webviewWith('SessionTicket');
    await frame.getByRole('button', { name: 'Open as JSON' }).click();
    const tab = page.locator('.editor-group-container.active .tab.active');
    const name = await poll('the JSON document\'s tab', async () => {
      const label = (await tab.getAttribute('aria-label').catch(() => '')) ?? '';
      return label.includes('.json') ? label : undefined;
    });
    assert(name.startsWith(`${RACER.name} (${RACER.titleId}) Login result `) && !/Untitled/.test(name), `the tab is named for the result: "${name}"`);
    // Closes the result (read-only, never dirty; Revert and Close works on any editor).
    await wb.runCommand('View: Revert and Close Editor');
  });

  t.step('Delete MobileStore Add-on: the real modal dialog, Delete, and the tree says absent', async () => {
    await page.keyboard.press('Escape');
    await wb.openActivity('Platform');
    await wb.contextMenu(wb.treeRow('MobileStore'), 'Delete MobileStore Add-on');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 20_000 });
    const said = (await dialog.innerText()).replace(/\s+/g, ' ');
    assert(said.includes(`Delete the MobileStore add-on of ${RACER.name} (${RACER.titleId})?`), `the dialog asks the question: ${said}`);
    assert(said.includes('Players signing in through it stop working'), `the dialog explains the consequence: ${said}`);
    await shot('08-delete-addon-dialog');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 20_000 });
    await wb.waitTreeRowText('MobileStore', /MobileStore absent/);
    await wb.waitNotification(/Deleted the MobileStore add-on of Demo Racer/);
  });

  t.step('right-click a PlatformId in a file and run Show Played Titles from the editor context menu', async () => {
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-box input').fill('support-ticket.md');
    await wb.quickPick('support-ticket.md');
    const word = page.locator('.monaco-editor .view-lines span', { hasText: platformId }).last();
    await word.waitFor({ timeout: 20_000 });
    await word.click();
    await wb.contextMenu(word, 'Show Played Titles', { whenOpen: () => shot('09-editor-context-menu') });
    const note = await wb.waitNotification(new RegExp(`PlatformId ${platformId} has played 2 titles`));
    assert(note.includes('F71AC (Demo Racer)'), `the notification names the titles: ${note}`);
    await shot('10-editor-show-played-titles');
    await wb.contextMenu(word, 'Copy PlatformId');
    await poll('the status bar to confirm the copy', async () => (await page.locator('.statusbar').innerText()).includes(`Copied PlatformId ${platformId}`));
    await wb.clearNotifications();
  });

  t.step('Start Local Emulator is not offered while an emulator serves the titles, and is once it stops', async () => {
    await poll('the Command Palette', async () => {
      await page.keyboard.press('F1');
      return wb.quickInput.waitFor({ state: 'visible', timeout: 2000 }).then(() => true, () => false);
    });
    await page.locator('.quick-input-box input').fill('>Platform: Start Local Emulator');
    // With no exact match the palette says so, or offers "similar commands" instead.
    const list = await poll('the palette to find no exact match', async () => {
      const text = await wb.quickInput.locator('.quick-input-list').innerText().catch(() => '');
      return /No matching commands|similar commands/.test(text) ? text : undefined;
    });
    assert(!list.includes('Start Local Emulator'), `the palette offers Start Local Emulator: ${list}`);
    await page.keyboard.press('Escape');
    await emulator.stop();
    await wb.runCommand('Platform: Refresh');
    // The palette lists commands as they were when it opened: reopen it until the probe has answered.
    await poll('Start Local Emulator offered again', async () => {
      await page.keyboard.press('F1');
      await wb.quickInput.waitFor({ state: 'visible', timeout: 2000 }).catch(() => {});
      await page.locator('.quick-input-box input').fill('>Platform: Start Local Emulator');
      const row = wb.quickInput.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: 'Platform: Start Local Emulator' }) }).first();
      const offered = await row.waitFor({ timeout: 1000 }).then(() => true, () => false);
      await page.keyboard.press('Escape');
      return offered;
    });
  });

  t.step('Platform: Start Local Emulator from F1 asks before it moves Demo Racer from the stopped emulator, then adds both demo titles with their keys', async () => {
    await wb.runCommand('Platform: Start Local Emulator');
    // Demo Racer was added for the emulator process of this suite: moving it needs a yes.
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 20_000 });
    const said = (await dialog.innerText()).replace(/\s+/g, ' ');
    assert(said.includes(`Point ${RACER.name} (${RACER.titleId}) at the emulator at http://127.0.0.1:`), `the dialog asks: ${said}`);
    await dialog.getByRole('button', { name: 'Re-point' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 20_000 });
    await wb.waitNotification(/Local emulator started at http:\/\/127\.0\.0\.1:\d+; titles ready: Demo Racer \(F71AC\), Demo Racer Arena \(A248\)/);
    await wb.openActivity('Platform');
    await wb.waitTreeRowText(ARENA.name, /A248 · key set · emulator/);
    await wb.expandTreeRow(ARENA.name);
    await poll('the second title\'s HandheldStore', async () => (await page.locator('.monaco-list-row[role="treeitem"]', { hasText: 'HandheldStore' }).count()) === 2);
    await wb.clearNotifications();
    await wb.runCommand('View: Close All Editors');
    await poll('the editors to close', async () => (await page.locator('.tabs-container .tab').count()) === 0);
    await wb.quickInput.waitFor({ state: 'hidden', timeout: 20_000 });
    await shot('11-tree-populated');
  });

  t.step('the walkthrough lists its four steps; its Start Local Emulator button works and checks the step off', async () => {
    await wb.clearNotifications();
    await wb.runCommand('Welcome: Open Walkthrough...');
    await wb.quickPick('Get started with Platform Explorer');
    const steps = page.locator('.gettingStartedContainer button.getting-started-step');
    await poll('the four walkthrough steps', async () => (await steps.count()) === 4);
    const titles = (await steps.locator('.step-title').allInnerTexts()).map((x) => x.trim());
    assert(JSON.stringify(titles) === JSON.stringify(['Add a title, or start the emulator', 'Set the title\'s secret key', 'Look up PlatformIds', 'Open the HandheldStore configuration']),
      `the walkthrough's steps: ${titles.join(' | ')}`);
    const first = steps.first();
    await first.getByRole('button', { name: 'Start Local Emulator' }).click();
    await wb.waitNotification(/The local emulator is already running at http:\/\/127\.0\.0\.1:\d+/);
    await poll('the first step to be checked off', async () => (await first.getAttribute('aria-checked')) === 'true');
    await wb.webviewWith('runs a Platform emulator inside VS Code'); // the step's markdown (media/walkthrough/addTitle.md)
    await wb.clearNotifications();
    await shot('12-walkthrough');
  });

  t.step('the status bar names the active title (the first one before any pick) and where it runs, read out with its title ID; clicking it picks another title', async () => {
    const item = page.locator('.statusbar-item', { hasText: /Platform: pick a title|· local emulator|· real title/ }).first();
    await poll('the first title to be active', async () => (await item.innerText()).includes(`${RACER.name} (${RACER.titleId}) · local emulator`));
    const name = await item.evaluate((el) => el.getAttribute('aria-label') ?? el.querySelector('[aria-label]')?.getAttribute('aria-label'));
    assert(name === `Platform title ${RACER.name} (${RACER.titleId}), local emulator`, `the name read out keeps the visible title ID: ${name}`);
    await item.click();
    await wb.quickInputTitled('Which title?');
    await wb.quickPick(ARENA.name);
    await poll('the status bar to name the picked title', async () => (await item.innerText()).includes(`${ARENA.name} (${ARENA.titleId}) · local emulator`));
    await shot('13-status-bar');
    // Its hover would cover the views the next steps click.
    await page.mouse.move(400, 300);
    await page.locator('.context-view .hover-contents').waitFor({ state: 'detached', timeout: 10_000 }).catch(() => page.keyboard.press('Escape'));
  });

  t.step('the Activity view lists the operations run with their outcome; Filter Activity narrows it', async () => {
    await wb.openActivity('Platform');
    const header = page.locator('.pane-header', { hasText: 'Activity' }).first();
    // The status bar item's hover (it keeps the focus from the last step) can cover the header: Escape closes it.
    await page.mouse.move(0, 0);
    await page.keyboard.press('Escape');
    await page.locator('.context-view .hover-contents').waitFor({ state: 'hidden' });
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    await wb.waitTreeRowText('DeleteMobileStore', /DeleteMobileStore F71AC · succeeded · \d+ ms/);
    await wb.waitTreeRowText('LoginWithLauncher', /succeeded/);
    await wb.waitTreeRowText('GetPlayedTitleList', /succeeded/);
    await shot('14-activity');
    await header.hover();
    await header.getByRole('button', { name: 'Filter Activity…' }).click();
    const input = await wb.quickInputTitled('Filter Activity');
    await input.fill('played');
    await page.keyboard.press('Enter');
    await poll('the filter to hide the other operations', async () =>
      (await wb.treeRow('DeleteMobileStore').count()) === 0 && (await wb.treeRow('GetPlayedTitleList').count()) === 1);
    await poll('the view to show its filter', async () => (await header.innerText()).includes('filter: played'));
  });

  t.step('F2 on the selected title renames it; the Titles filter narrows the view and clears', async () => {
    const header = page.locator('.pane-header', { hasText: 'Titles' }).first();
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    await wb.treeRow(ARENA.name).click();
    await page.keyboard.press('F2');
    const input = await wb.quickInputTitled(`Rename ${ARENA.titleId}`);
    assert((await input.inputValue()) === ARENA.name, 'the input holds the selected title\'s name');
    await input.fill('Arena Renamed');
    await page.keyboard.press('Enter');
    await wb.waitTreeRowText('Arena Renamed', /A248/);

    await header.hover();
    await header.getByRole('button', { name: 'Filter Titles and Deletion Jobs…' }).click();
    const filter = await wb.quickInputTitled('Filter Titles and Deletion Jobs');
    await filter.fill(RACER.titleId);
    await page.keyboard.press('Enter');
    await poll('the filter to hide the other title', async () =>
      (await wb.treeRow('Arena Renamed').count()) === 0 && (await wb.treeRow(RACER.name).count()) === 1);
    await poll('the view to show its filter', async () => (await header.innerText()).includes(`filter: ${RACER.titleId}`));
    await shot('15-titles-filter');
    await header.hover();
    await header.getByRole('button', { name: 'Clear Titles Filter' }).click();
    await poll('both titles back', async () => (await wb.treeRow('Arena Renamed').count()) === 1 && (await wb.treeRow(RACER.name).count()) === 1);
  });

  t.step('Delete acts on the focused title, not on a selection the focus moved away from; a title with a key needs its ID typed', async () => {
    await wb.treeRow(RACER.name).click();
    // Arrow keys move the focus, not the selection (VS Code's lists).
    const focusedLabel = async () => (await page.locator('.monaco-list-row[role="treeitem"].focused .label-name').first().innerText().catch(() => '')).trim();
    await poll('the focus on the other title', async () => {
      if ((await focusedLabel()) === 'Arena Renamed') return true;
      await page.keyboard.press('ArrowDown');
      return false;
    }, 20_000, 100);
    assert((await wb.treeRow(RACER.name).getAttribute('aria-selected')) === 'true', 'Demo Racer stays selected');
    await page.keyboard.press('Delete');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 20_000 });
    const said = (await dialog.innerText()).replace(/\s+/g, ' ');
    assert(said.includes(`Remove title Arena Renamed (${ARENA.titleId})?`), `the focused title, not the selected one: ${said}`);
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 20_000 });
    // It has a key: Enter alone does not remove it.
    const typed = await wb.quickInputTitled('Confirm removal');
    await page.keyboard.press('Enter');
    assert((await typed.isVisible()) && (await wb.treeRow('Arena Renamed').count()) === 1, 'nothing removed without the title ID');
    await page.keyboard.press('Escape');
    await wb.quickInput.waitFor({ state: 'hidden', timeout: 20_000 });
    assert((await wb.treeRow('Arena Renamed').count()) === 1 && (await wb.treeRow(RACER.name).count()) === 1, 'both titles kept');
  });

  /** Looks up the demo player's Storefront name from the palette; the result's tab. */
  async function storefrontLookupTab() {
    await wb.runCommand('Platform: Look Up PlatformIds from Storefront Names');
    const names = await wb.quickInputTitled('Look Up PlatformIds from Storefront Names');
    await names.fill(PLAYER.storefrontName);
    await page.keyboard.press('Enter');
    const tab = page.locator('.tab', { hasText: RESULT_NAME }).first();
    await tab.waitFor({ timeout: 15_000 });
    return tab;
  }

  t.step('a lookup result opens in a read-only tab named for it, holding the result; closing it asks nothing and writes nothing', async () => {
    // The active title is the one the status bar shows: Demo Racer picked there, the lookup asks no title.
    await page.locator('.statusbar-item', { hasText: /· local emulator/ }).first().click();
    await wb.quickInputTitled('Which title?');
    await wb.quickPick(RACER.name);
    await page.mouse.move(400, 300);
    const tab = await storefrontLookupTab();
    await tab.click();
    assert(!(await tab.getAttribute('class')).split(/\s+/).includes('dirty'), 'the result is not an unsaved document');
    const text = await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().innerText();
    assert(text.includes(platformId), `the result shows the PlatformId: ${text.slice(0, 300)}`);
    await shot('16-result-tab');
    // Closed from the palette (Ctrl+W may belong to the browser): the tab goes without a question
    // (a save question would hold it open), and nothing is written to the workspace folder.
    await wb.runCommand('View: Close Editor');
    await tab.waitFor({ state: 'detached', timeout: 15_000 });
    assert((await page.locator('.monaco-dialog-box').count()) === 0, 'no save question');
    assert(readdirSync(folder).every((f) => !/Storefront lookup/.test(f)), 'nothing written to the workspace folder');
  });

  t.step('Ctrl+S on a result offers Save As in the workspace folder under the result\'s name, and keeps a copy there', async () => {
    const tab = await storefrontLookupTab();
    const name = RESULT_NAME.exec(((await tab.textContent()) ?? '').replace(/\s+/g, ' '))?.[0];
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+S');
    // Not an error, not a question: the Save As dialog, in the workspace folder, with the result's name.
    const path = await wb.quickInputTitled('Save As');
    // The dialog fills in the folder, then the name.
    let proposed = '';
    await poll(`Save As to propose ${join(folder, name)}`, async () => (proposed = await path.inputValue()) === join(folder, name))
      .catch((e) => { throw new Error(`${e.message}; it proposes "${proposed}"`); });
    assert((await page.locator('.monaco-dialog-box').count()) === 0, 'a dialog besides Save As');
    await shot('17-result-save-as');
    await page.keyboard.press('Enter');
    // Polled until the whole result is there (the file may be seen while it is being written).
    const saved = await poll('the copy in the workspace folder', async () => {
      try { return JSON.parse(readFileSync(join(folder, name), 'utf8')); } catch { return undefined; }
    });
    assert(saved.linked === 1 && JSON.stringify(saved).includes(platformId), `the copy holds the result: ${JSON.stringify(saved).slice(0, 300)}`);
    assert((await wb.notifications()).every((n) => !/fail|error|unable/i.test(n)), `no error: ${await wb.notifications()}`);
    await wb.runCommand('View: Close All Editors');
    rmSync(join(folder, name));
  });

  t.step('select two of four lines and run Delete Master Player Accounts from List… from the editor context menu: the dry run plans those two, not the file', async () => {
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-box input').fill('players.txt');
    await wb.quickPick('players.txt');
    const second = page.locator('.monaco-editor .view-lines .view-line', { hasText: listIds[1] });
    await second.waitFor({ timeout: 20_000 });
    await second.click();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    const inside = page.locator('.monaco-editor .view-lines span', { hasText: listIds[2] }).last();
    await wb.contextMenu(inside, 'Delete Master Player Accounts from List');
    // The ticket reference (optional): left empty.
    await wb.quickInputTitled('Ticket reference');
    await page.keyboard.press('Enter');
    // The question (the active title's, its counts in it) is not modal: the dry run stays readable and scrollable.
    const question = 'Delete 2 master player accounts through Demo Racer (F71AC)?';
    await wb.quickInputTitled(question);
    assert((await page.locator('.monaco-dialog-box').count()) === 0, 'no modal covers the dry run');
    const dryRun = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
    // The editor draws spaces as no-break spaces.
    const shown = async () => (await dryRun.innerText()).replace(/\u00a0/g, ' ');
    await poll('the dry run in the active editor', async () => (await shown()).includes('## To delete: 2'));
    // Clicked into and moved through by keyboard while the question waits (a modal would block both).
    await dryRun.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Shift+Control+Home');
    await poll('the dry run selected whole while the question stays open', async () =>
      (await page.locator('.editor-group-container.active .monaco-editor .selected-text').count()) > 0 && (await wb.quickInput.isVisible()));
    assert((await shown()).includes(listIds[2]), 'the planned players are on screen beside the question');
    await shot('17-dry-run-question');
    // Dismissed: nothing is sent, no modal follows.
    await page.locator('.quick-input-box input').click();
    await page.keyboard.press('Escape');
    await wb.quickInput.waitFor({ state: 'hidden', timeout: 20_000 });
    assert((await page.locator('.monaco-dialog-box').count()) === 0, 'no modal after the question was dismissed');
    // The dry run (the active editor, never saved) goes without a save question, then the list.
    await wb.runCommand('View: Revert and Close Editor');
    await wb.runCommand('View: Close All Editors');
    await poll('the editors to close', async () => (await page.locator('.tabs-container .tab').count()) === 0);
  });

  return {
    t,
    onFailure: async (title) => {
      await shot(`failed-${slug(title)}`);
      writeFileSync(join(results, `failed-${slug(title)}.html`), await page.content()); console.log(`    screenshot: test-results/ui/failed-${slug(title)}.png`); },
  };
});
