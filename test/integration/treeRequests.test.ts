// The figure of issue 14: what the Titles view costs the service, measured in the real
// workbench (the view itself calls the provider) with the emulator's request counts.
// Requests per refresh = one GetHandheldStore per expanded title; store events other than
// Refresh re-read nothing; opening the HandheldStore panel adds its own one request only.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_TITLES } from '../../src/emulator/seed';
import type { TreeNode } from '../../src/extension/tree/nodes';
import type { TitlesTreeProvider } from '../../src/extension/tree/provider';
import { emu, requestCount, script, useFreshExtension, waitForWebviewTab } from './support/harness';

const OP = 'Addon/GetHandheldStore';
const [RACER, ARENA] = DEMO_TITLES;
const BOTH = [RACER.titleId, ARENA.titleId];

describe('Titles view: requests per refresh', () => {
  const ctx = useFreshExtension({ emulator: true });

  /**
   * The view's calls to getChildren, each with its answer: every tree read of HandheldStore happens
   * inside one (a title's children wait for its read, shared by concurrent calls).
   */
  const calls: { id: string | undefined; done: Promise<unknown> }[] = [];
  let seen: (() => void) | undefined;
  let original: TitlesTreeProvider['getChildren'] | undefined;
  beforeEach(() => {
    const tree = ctx.api.tree;
    original = tree.getChildren;
    const own = original;
    tree.getChildren = function (node?: TreeNode) {
      const done = own.call(this, node);
      calls.push({ id: node?.id, done });
      seen?.();
      return done;
    };
  });
  afterEach(() => {
    if (original) ctx.api.tree.getChildren = original;
    calls.length = 0;
  });

  /** Resolves when the view has asked for the children of each of `ids` (undefined: the roots) since call number `from`. */
  async function asked(from: number, ids: (string | undefined)[]): Promise<void> {
    const missing = (): (string | undefined)[] => ids.filter((id) => !calls.slice(from).some((c) => c.id === id));
    const deadline = Date.now() + 15_000;
    while (missing().length > 0) {
      if (Date.now() > deadline) throw new Error(`the view never asked for the children of ${missing().join(', ')}`);
      await new Promise<void>((r) => {
        seen = r;
        setTimeout(r, 500);
      });
    }
  }

  /**
   * GetHandheldStore requests once the view has drawn every change made so far: the whole tree
   * is redrawn (the same filter again) and each expanded title's children answered since then.
   * A title whose HandheldStore state is unknown, or being read, answers only after that read,
   * so the count includes every read the changes caused, without waiting for a quiet period.
   */
  async function drawn(expanded: string[]): Promise<number> {
    const from = calls.length;
    await ctx.api.tree.setFilter(ctx.api.tree.filter);
    await asked(from, [undefined, ...expanded.map((id) => `title/${id}`)]);
    await Promise.allSettled(calls.map((c) => c.done));
    return requestCount(ctx.api, OP);
  }

  /** Waits for something that has to happen (at most 15 s). */
  async function until(what: string, ok: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (!(await ok())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
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
    await drawn([]);
    await resetStats();
    await expand(RACER.titleId);
    assert.equal(await drawn([RACER.titleId]), 1, 'expanding a title whose state is unknown reads it once');

    const figures: string[] = [];
    for (const expanded of [[RACER.titleId], [RACER.titleId, ARENA.titleId]]) {
      for (const id of expanded) await expand(id);
      await drawn(expanded);
      await resetStats();
      await vscode.commands.executeCommand('platformExplorer.refresh');
      const n = await drawn(expanded);
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
    assert.equal(await drawn(BOTH), 0, 'a rename, a ledger change or an add-on change re-read HandheldStore');
    assert.equal(ctx.api.titles.get(RACER.titleId)?.name, 'Racer Renamed');

    // The panel makes its own request and writes the shared state; the tree does not read again.
    await resetStats();
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.showHandheldStore', { titleId: RACER.titleId });
    await waitForWebviewTab('Racer Renamed');
    // The panel's own read (it may still be on its way when the tab shows), then the view drawn.
    await until('the panel\'s GetHandheldStore', async () => (await requestCount(ctx.api, OP)) > 0);
    const withPanel = await drawn(BOTH);
    figures.push(`opening the panel with 2 expanded: ${withPanel}`);
    assert.equal(withPanel, 1, figures.join('; '));
    console.log(`      figure: ${figures.join('; ')}`);
  });
});
