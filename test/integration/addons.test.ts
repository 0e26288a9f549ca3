// Store add-ons: HandheldStore read live (tree and panel); Delete MobileStore / ConsoleNetB
// with a modal confirmation, where AddonDoesntExist reads as "already absent".
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_TITLES } from '../../src/emulator/seed';
import { emu, requestCount, script, titleChild, useFreshExtension, waitForWebviewTab } from './support/harness';

const RACER = DEMO_TITLES[0];

describe('Store add-ons', () => {
  const ctx = useFreshExtension({ emulator: true });

  it('Delete MobileStore: confirm, delete, the node turns absent; deleting again reads as already absent', async () => {
    let node = await titleChild(ctx.api, RACER.titleId, 'MobileStore');
    assert.equal(node.description, 'state unknown');
    assert.match(node.contextValue, /\bdeletable\b/);

    let p = script(ctx.api).press('Delete');
    assert.equal(await vscode.commands.executeCommand('platformExplorer.deleteMobileStore', node.node), 'deleted');
    p.assertDone();
    assert.match(p.confirms[0].message, /MobileStore add-on of Demo Racer/);
    node = await titleChild(ctx.api, RACER.titleId, 'MobileStore');
    assert.equal(node.description, 'absent');
    assert.doesNotMatch(node.contextValue, /\bdeletable\b/);

    p = script(ctx.api).press('Delete');
    assert.equal(await vscode.commands.executeCommand('platformExplorer.deleteMobileStore', { titleId: RACER.titleId }), 'alreadyAbsent');
    p.assertDone();
    assert.match(p.infos[0], /already absent/);
    assert.equal(await requestCount(ctx.api, 'Addon/DeleteMobileStore'), 2);
    // The other title's add-on is untouched.
    assert.equal((await titleChild(ctx.api, DEMO_TITLES[1].titleId, 'MobileStore')).description, 'state unknown');
  });

  it('Delete ConsoleNetB: an add-on that is already gone on the service updates the node to absent', async () => {
    script(ctx.api).press('Delete');
    await vscode.commands.executeCommand('platformExplorer.deleteConsoleNetB', { titleId: RACER.titleId });
    ctx.api.addonStates.set(RACER.titleId, 'ConsoleNetB', 'unknown');
    const p = script(ctx.api).press('Delete');
    assert.equal(await vscode.commands.executeCommand('platformExplorer.deleteConsoleNetB', { titleId: RACER.titleId }), 'alreadyAbsent');
    assert.deepEqual(p.errors, []);
    assert.equal((await titleChild(ctx.api, RACER.titleId, 'ConsoleNetB')).description, 'absent');
  });

  it('dismissing the confirmation sends nothing', async () => {
    const p = script(ctx.api).press(undefined);
    await vscode.commands.executeCommand('platformExplorer.deleteConsoleNetB', { titleId: RACER.titleId });
    assert.deepEqual(p.errors, []);
    assert.equal(await requestCount(ctx.api, 'Addon/DeleteConsoleNetB'), 0);
    assert.equal((await titleChild(ctx.api, RACER.titleId, 'ConsoleNetB')).description, 'state unknown');
  });

  it('a failed delete shows the error and leaves the state unknown', async () => {
    await emu(ctx.api, 'POST', 'faults', { rules: [{ operation: 'Addon/DeleteConsoleNetB', kind: '500', times: -1 }] });
    const p = script(ctx.api).press('Delete');
    try {
      await vscode.commands.executeCommand('platformExplorer.deleteConsoleNetB', { titleId: RACER.titleId });
    } finally {
      await emu(ctx.api, 'POST', 'faults/clear');
    }
    assert.equal(p.errors.length, 1);
    assert.equal((await titleChild(ctx.api, RACER.titleId, 'ConsoleNetB')).description, 'state unknown');
    assert.ok(ctx.api.titles.get(RACER.titleId));
  });

  it('HandheldStore: the node reads Created live and the command opens its panel', async () => {
    assert.equal((await titleChild(ctx.api, RACER.titleId, 'HandheldStore')).description, 'created');
    const p = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.showHandheldStore', { titleId: RACER.titleId });
    p.assertDone();
    await waitForWebviewTab(RACER.name);
    const deadline = Date.now() + 10_000;
    while ((await requestCount(ctx.api, 'Addon/GetHandheldStore')) < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok((await requestCount(ctx.api, 'Addon/GetHandheldStore')) >= 2, 'the panel did not load the configuration');
    assert.ok(!ctx.api.logLines().some((l) => l.includes(RACER.secretKey)));
  });

  it('a removed title closes its panels', async () => {
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.showHandheldStore', { titleId: RACER.titleId });
    await waitForWebviewTab(RACER.name);
    const p = script(ctx.api).press('Remove').typeIn(RACER.titleId);
    assert.equal(await vscode.commands.executeCommand('platformExplorer.removeTitle', { titleId: RACER.titleId }), true);
    p.assertDone();
    const open = (): boolean => vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.input instanceof vscode.TabInputWebview && t.label.includes(RACER.name));
    const deadline = Date.now() + 10_000;
    while (open() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(open(), false, 'the HandheldStore panel of the removed title is still open');
  });
});
