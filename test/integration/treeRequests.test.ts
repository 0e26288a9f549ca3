// The figure of issue 14: what the Titles view costs the service, measured in the real
// workbench (the view itself calls the provider) with the emulator's request counts.
// Requests per refresh = one GetHandheldStore per expanded title; store events other than
// Refresh re-read nothing; opening the HandheldStore panel adds its own one request only.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_TITLES } from '../../src/emulator/seed';
import type { TreeNode } from '../../src/extension/tree/nodes';
import { emu, requestCount, script, useFreshExtension, waitForWebviewTab } from './support/harness';

const OP = 'Addon/GetHandheldStore';
const [RACER, ARENA] = DEMO_TITLES;

describe('Titles view: requests per refresh', () => {
  const ctx = useFreshExtension({ emulator: true });

  /** GetHandheldStore requests once the view has settled (no new one for a second; at most 10 s). */
  async function settled(): Promise<number> {
    let last = await requestCount(ctx.api, OP);
    let quietSince = Date.now();
    const deadline = Date.now() + 10_000;
    while (Date.now() - quietSince < 1000 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      const now = await requestCount(ctx.api, OP);
      if (now !== last) {
        last = now;
        quietSince = Date.now();
      }
    }
    return last;
  }

  async function titleNode(titleId: string): Promise<TreeNode> {
    const node = (await ctx.api.tree.getChildren()).find((n) => n.id === `title/${titleId}`);
    assert.ok(node, `title ${titleId} is not in the tree`);
    return node;
  }

  async function expand(titleId: string): Promise<void> {
    const view = ctx.api.tree.view;
    assert.ok(view, 'the Titles view was not created');
    await view.reveal(await titleNode(titleId), { expand: true, focus: false, select: false });
  }

  async function resetStats(): Promise<void> {
    await emu(ctx.api, 'POST', 'stats/reset');
  }

  it('Refresh reads HandheldStore once per expanded title; other events and the panel add no tree read', async () => {
    // Show the view (its collapse-all command exists from then on) and start with every title collapsed.
    await vscode.commands.executeCommand('platformExplorer.titles.focus');
    await vscode.commands.executeCommand('workbench.actions.treeView.platformExplorer.titles.collapseAll');
    await settled();
    await resetStats();
    await expand(RACER.titleId);
    assert.equal(await settled(), 1, 'expanding a title whose state is unknown reads it once');

    const figures: string[] = [];
    for (const expanded of [[RACER.titleId], [RACER.titleId, ARENA.titleId]]) {
      for (const id of expanded) await expand(id);
      await settled();
      await resetStats();
      await vscode.commands.executeCommand('platformExplorer.refresh');
      const n = await settled();
      figures.push(`${expanded.length} expanded: ${n} GetHandheldStore per Refresh`);
      assert.equal(n, expanded.length, figures.join('; '));
    }

    // Events that are not Refresh redraw from the cache: a rename, a ledger entry, a known add-on state.
    await resetStats();
    script(ctx.api).typeIn('Racer Renamed');
    await vscode.commands.executeCommand('platformExplorer.renameTitle', { titleId: RACER.titleId });
    await ctx.api.jobs.add({
      titleId: ARENA.titleId, platformId: 'ABCDEF0123456789', input: 'ABCDEF0123456789', titleIds: [ARENA.titleId],
      state: 'queued', jobReceiptId: '0123456789ABCDEF0123456789ABCDEF', requestedAt: new Date().toISOString(),
    });
    ctx.api.addonStates.set(RACER.titleId, 'MobileStore', 'absent');
    assert.equal(await settled(), 0, 'a rename, a ledger change or an add-on change re-read HandheldStore');
    assert.equal(ctx.api.titles.get(RACER.titleId)?.name, 'Racer Renamed');

    // The panel makes its own request and writes the shared state; the tree does not read again.
    await resetStats();
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.showHandheldStore', { titleId: RACER.titleId });
    await waitForWebviewTab('Racer Renamed');
    const withPanel = await settled();
    figures.push(`opening the panel with 2 expanded: ${withPanel}`);
    assert.equal(withPanel, 1, figures.join('; '));
    console.log(`      figure: ${figures.join('; ')}`);
  });
});
