// Defects a new user hit (issue 13): Start Local Emulator while an emulator already serves the
// titles, add-on states kept across an endpoint change, the welcome view's settings link when
// VS Code runs remotely, walkthrough steps done another way, text slips in the tree's labels.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startEmulator } from '../../src/emulator/server';
import { DEMO_TITLES } from '../../src/emulator/seed';
import type { TestApi } from '../../src/extension/testApi';
import { children, EXTENSION_ID, script, startEmulatorWithDemoTitles, titleChild, useFreshExtension } from './support/harness';

const RACER = DEMO_TITLES[0];

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(ok(), `timed out waiting for ${what}`);
}

async function stopInHostEmulator(api: TestApi): Promise<void> {
  script(api);
  await vscode.commands.executeCommand('platformExplorer.stopEmulator');
  assert.equal(api.emulator(), undefined);
}

const pkg = (): { contributes: Record<string, unknown> } => vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON;

describe('Everyday use', () => {
  const ctx = useFreshExtension({ emulator: false });

  it('Start Local Emulator is not offered, and starts nothing, while another emulator serves the titles', async () => {
    await stopInHostEmulator(ctx.api);
    const other = await startEmulator({ seed: 'demo' });
    try {
      await ctx.api.titles.upsert({ titleId: RACER.titleId, name: RACER.name, endpointProfile: 'emulator', emulatorEndpoint: other.endpoint });
      await until('emulatorServing', () => ctx.api.contextValue('platformExplorer.emulatorServing') === true);
      const menus = pkg().contributes.menus as Record<string, { command: string; when?: string }[]>;
      for (const where of ['view/title', 'commandPalette']) {
        const entry = menus[where].find((m) => m.command === 'platformExplorer.startEmulator');
        assert.match(entry?.when ?? '', /!platformExplorer\.emulatorServing/, `${where} hides Start Local Emulator`);
      }
      const p = script(ctx.api);
      const started = await vscode.commands.executeCommand<{ titleIds: string[]; origin: string }>('platformExplorer.startEmulator');
      assert.equal(ctx.api.emulator(), undefined, 'a second emulator was started in the extension host');
      assert.deepEqual(started?.titleIds, []);
      assert.equal(started?.origin, other.origin);
      assert.match(p.infos[0], /already serves your emulator titles/);
      assert.equal(ctx.api.titles.get(RACER.titleId)?.emulatorEndpoint, other.endpoint, 'the title was re-pointed');
    } finally {
      await other.close();
    }
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.refresh');
    assert.equal(ctx.api.contextValue('platformExplorer.emulatorServing'), false, 'offered again once nothing answers');
  });

  it('add-on states belong to the endpoint they were learned from and go when it changes', async () => {
    await startEmulatorWithDemoTitles(ctx.api);
    const p = script(ctx.api).press('Delete');
    assert.equal(await vscode.commands.executeCommand('platformExplorer.deleteMobileStore', { titleId: RACER.titleId }), 'deleted');
    p.assertDone();
    assert.equal((await titleChild(ctx.api, RACER.titleId, 'MobileStore')).description, 'absent');
    const title = ctx.api.titles.get(RACER.titleId)!;
    const other = await startEmulator({ seed: 'demo' });
    try {
      await ctx.api.titles.upsert({ ...title, emulatorEndpoint: other.endpoint });
      assert.equal((await titleChild(ctx.api, RACER.titleId, 'MobileStore')).description, 'state unknown');
      // Back to the first endpoint: the old state is gone, not restored.
      await ctx.api.titles.upsert(title);
      assert.equal((await titleChild(ctx.api, RACER.titleId, 'MobileStore')).description, 'state unknown');
    } finally {
      await other.close();
    }
  });

  it('the welcome view\'s settings link opens the scope where the machine-scoped endpoint can be set', async () => {
    const nls = (pkg().contributes.viewsWelcome as { contents: string }[])[0].contents;
    // The manifest as installed has its %key% texts resolved.
    assert.match(nls, /\(command:platformExplorer\.openEndpointSetting\)/);
    const scope = await vscode.commands.executeCommand('platformExplorer.openEndpointSetting');
    assert.equal(scope, vscode.env.remoteName ? 'remote' : 'user', `remoteName=${vscode.env.remoteName}`);
    await until('the settings editor', () => vscode.window.tabGroups.activeTabGroup.activeTab !== undefined);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('the walkthrough\'s first steps tick however the title and key were set up', async () => {
    const steps = (pkg().contributes.walkthroughs as { steps: { id: string; completionEvents: string[] }[] }[])[0].steps;
    assert.ok(steps.find((s) => s.id === 'addTitle')!.completionEvents.includes('onContext:platformExplorer.hasTitle'));
    assert.ok(steps.find((s) => s.id === 'setKey')!.completionEvents.includes('onContext:platformExplorer.hasSecretKey'));
    await until('hasTitle false', () => ctx.api.contextValue('platformExplorer.hasTitle') === false);
    // Neither through the walkthrough's buttons (Add Title / Set Secret Key / Start Local Emulator).
    await ctx.api.titles.upsert({ titleId: 'C0FFEE', name: 'Coffee', endpointProfile: 'service' });
    await until('hasTitle', () => ctx.api.contextValue('platformExplorer.hasTitle') === true);
    assert.equal(ctx.api.contextValue('platformExplorer.hasSecretKey'), false);
    script(ctx.api).typeIn('a-secret-key-for-coffee');
    await vscode.commands.executeCommand('platformExplorer.setSecretKey', { titleId: 'C0FFEE' });
    await until('hasSecretKey', () => ctx.api.contextValue('platformExplorer.hasSecretKey') === true);
  });

  it('the walkthrough\'s lookup and HandheldStore steps tick from Activity, however the command ran', async () => {
    const steps = (pkg().contributes.walkthroughs as { steps: { id: string; completionEvents: string[] }[] }[])[0].steps;
    assert.ok(steps.find((s) => s.id === 'lookup')!.completionEvents.includes('onContext:platformExplorer.hasLookedUp'));
    assert.ok(steps.find((s) => s.id === 'handheldStore')!.completionEvents.includes('onContext:platformExplorer.hasReadHandheldStore'));
    await startEmulatorWithDemoTitles(ctx.api);
    await until('hasLookedUp false', () => ctx.api.contextValue('platformExplorer.hasLookedUp') === false);
    // A lookup from an argument (as a task, a link or the editor's menu passes one), not the walkthrough's button.
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.lookUpStorefrontNames', { titleId: DEMO_TITLES[0].titleId, names: ['racer_ana_0'] });
    await until('hasLookedUp', () => ctx.api.contextValue('platformExplorer.hasLookedUp') === true);
    assert.equal(ctx.api.contextValue('platformExplorer.hasReadHandheldStore'), false);
    // The HandheldStore node's own click (its command with the node's argument).
    const node = await titleChild(ctx.api, DEMO_TITLES[0].titleId, 'HandheldStore');
    const click = ctx.api.tree.getTreeItem(node.node).command!;
    script(ctx.api);
    await vscode.commands.executeCommand(click.command, ...(click.arguments ?? []));
    await until('hasReadHandheldStore', () => ctx.api.contextValue('platformExplorer.hasReadHandheldStore') === true);
  });

  it('tree items read well to a screen reader: label and state, no doubled punctuation', async () => {
    await startEmulatorWithDemoTitles(ctx.api);
    const rows = [...await children(ctx.api)];
    for (const t of [...rows]) rows.push(...await children(ctx.api, t.node));
    const labels = rows.map((r) => ctx.api.tree.getTreeItem(r.node).accessibilityInformation?.label ?? '');
    assert.ok(labels.includes('HandheldStore, created'), labels.join(' | '));
    // Whose deletion jobs, and how many of what.
    assert.ok(labels.includes('Deletion Jobs of Demo Racer (F71AC), none'), labels.join(' | '));
    for (const l of labels) {
      assert.ok(l.length > 0);
      assert.doesNotMatch(l, /[.…]$|\.,|\.\./, l);
    }
  });
});
