// The Activity view: every operation run through the extension, with title, outcome,
// duration and receipt; filter, Copy as JSON, re-run for read-only operations only; kept in
// globalState, bounded, with no secret in it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import type { ActivityEntry } from '../../src/extension/activity/store';
import { emu, requestCount, script, useFreshExtension, EXTENSION_ID } from './support/harness';

const RACER = DEMO_TITLES[0];
const PLAYER = DEMO_PLAYERS.find((p) => p.launcherSubject && p.playedTitles.includes(RACER.titleId) && !p.banned)!;
const OTHER = DEMO_PLAYERS.find((p) => p !== PLAYER && p.playedTitles.includes(RACER.titleId) && !p.banned)!;
const NOBODY = '0123456789ABCDEF';

describe('Activity view', () => {
  const ctx = useFreshExtension({ emulator: true });

  const shown = async (): Promise<{ entry: ActivityEntry; item: vscode.TreeItem }[]> =>
    ctx.api.activityView.getChildren().map((i) => ({ entry: i.entry, item: ctx.api.activityView.getTreeItem(i) }));

  it('records each operation with title, outcome, duration and receipt; newest first; no secret stored', async () => {
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.showPlayedTitles', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.showPlayedTitles', { titleId: RACER.titleId, platformId: NOBODY });
    script(ctx.api).press('Delete').typeIn(OTHER.platformId);
    const receipt = await vscode.commands.executeCommand<{ JobReceiptId: string }>('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: OTHER.platformId });
    script(ctx.api).press(undefined);
    await vscode.commands.executeCommand('platformExplorer.deleteMobileStore', { titleId: RACER.titleId });
    const { IdentityToken } = await emu<{ IdentityToken: string }>(ctx.api, 'POST', 'launcher-token', { titleId: RACER.titleId, subject: PLAYER.launcherSubject });
    script(ctx.api).choose('Paste an IdentityToken').typeIn(IdentityToken).choose('Sign in only').chooseMany([]).typeIn('');
    await vscode.commands.executeCommand('platformExplorer.testLauncherLogin', { titleId: RACER.titleId });
    // Not an operation: not recorded.
    script(ctx.api).typeIn('Renamed');
    await vscode.commands.executeCommand('platformExplorer.renameTitle', { titleId: RACER.titleId });

    const rows = await shown();
    assert.deepEqual(
      rows.map((r) => [r.entry.operation, r.entry.titleId, r.entry.outcome, r.entry.errorCode, r.entry.jobReceiptId]),
      [
        ['LoginWithLauncher', RACER.titleId, 'succeeded', undefined, undefined],
        ['DeleteMobileStore', RACER.titleId, 'cancelled', undefined, undefined],
        ['DeleteMasterPlayerAccount', RACER.titleId, 'succeeded', undefined, receipt?.JobReceiptId],
        ['GetPlayedTitleList', RACER.titleId, 'failed', 1001, undefined],
        ['GetPlayedTitleList', RACER.titleId, 'succeeded', undefined, undefined],
      ],
    );
    for (const r of rows) {
      assert.ok(Number.isInteger(r.entry.durationMs) && r.entry.durationMs >= 0);
      assert.ok(!Number.isNaN(Date.parse(r.entry.time)));
    }
    assert.match(String(rows[2].item.tooltip), new RegExp(`Receipt \\(JobReceiptId\\): ${receipt!.JobReceiptId}`));
    assert.match(String(rows[3].item.description), /failed \(1001\)/);
    // Re-run only for what changes nothing.
    assert.deepEqual(rows.map((r) => /\brerunnable\b/.test(r.item.contextValue ?? '')), [true, false, false, true, true]);

    // Kept in globalState, with only the checked fields: no key, token or ticket.
    const stored = JSON.stringify(ctx.api.stateSnapshot()['global:platformExplorer.activity']);
    assert.equal((JSON.parse(stored) as unknown[]).length, 5);
    for (const secret of [RACER.secretKey, IdentityToken, 'SessionTicket', 'EntityToken', 'IdentityToken']) {
      assert.ok(!stored.includes(secret), `Activity stored ${secret.slice(0, 12)}…`);
    }
  });

  it('the duration is the time the service took, not the time a prompt stayed open', async () => {
    await emu(ctx.api, 'POST', 'faults', { latencyMs: 150 });
    try {
      // The PlatformId typed takes 1.5 s.
      const p = script(ctx.api).typeIn(PLAYER.platformId);
      p.thinkMs = 1500;
      const started = Date.now();
      await vscode.commands.executeCommand('platformExplorer.showPlayedTitles');
      p.assertDone();
      assert.ok(Date.now() - started >= 1500);
    } finally {
      await emu(ctx.api, 'POST', 'faults/clear');
    }
    const [entry] = ctx.api.activity.all();
    assert.equal(entry.operation, 'GetPlayedTitleList');
    assert.ok(entry.durationMs >= 150 && entry.durationMs < 1000, `duration ${entry.durationMs} ms: the picker's 1.5 s counted`);
  });

  it('a HandheldStore panel whose load failed (emulator stopped: connection refused) is recorded as failed, not succeeded', async () => {
    const p = script(ctx.api);
    assert.equal(await vscode.commands.executeCommand('platformExplorer.stopEmulator'), true);
    p.assertDone();
    const errors: { message: string; fix?: string }[] = [];
    const observer = ctx.api.observePanels((t) => {
      if ('message' in t && t.message.type === 'error' && t.titleId === RACER.titleId) errors.push(t.message);
    });
    try {
      const shown = script(ctx.api);
      await vscode.commands.executeCommand('platformExplorer.showHandheldStore', { titleId: RACER.titleId });
      // The failure is shown in the panel, not as a toast as well.
      assert.deepEqual(shown.errors, []);
      // The entry is written when the command returns: the panel's first load is part of the command.
      const entries = ctx.api.activity.all();
      assert.equal(entries.length, 1, JSON.stringify(entries));
      assert.deepEqual([entries[0].operation, entries[0].titleId, entries[0].outcome], ['GetHandheldStore', RACER.titleId, 'failed']);
      // The panel shows the same failure once its page is ready.
      for (let i = 0; i < 200 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      assert.ok(errors.length > 0, 'the panel showed no error');
      // Logged, and its fix offered in the panel, as a command's failure is.
      assert.equal(errors[0].fix, 'Start Local Emulator');
      assert.ok(ctx.api.logLines().some((l) => l.includes(`handheldStore panel of ${RACER.titleId} failed: `)), 'the failure was not logged');
    } finally {
      observer.dispose();
    }
  });

  it('filters, copies as JSON, re-runs a lookup and never re-runs a delete', async () => {
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.showPlayedTitles', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    script(ctx.api).press('Delete').typeIn(PLAYER.platformId);
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: PLAYER.platformId });

    script(ctx.api).typeIn('deletemaster succeeded');
    assert.equal(await vscode.commands.executeCommand('platformExplorer.filterActivity'), 'deletemaster succeeded');
    let rows = await shown();
    assert.deepEqual(rows.map((r) => r.entry.operation), ['DeleteMasterPlayerAccount']);
    const copied = script(ctx.api);
    const json = await vscode.commands.executeCommand<string>('platformExplorer.copyActivityJson');
    assert.equal(await vscode.env.clipboard.readText(), json);
    // Announced in a notification (screen readers read it), not only in the status bar.
    assert.deepEqual(copied.infos, ['Copied 1 Activity entry as JSON']);
    assert.deepEqual((JSON.parse(json) as ActivityEntry[]).map((e) => e.operation), ['DeleteMasterPlayerAccount']);

    // Re-run of the delete is refused with a message, and nothing is sent.
    const deletes = await requestCount(ctx.api, 'Admin/DeleteMasterPlayerAccount');
    const p = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.rerunActivity', ctx.api.activityView.getChildren()[0]);
    assert.match(p.errors[0] ?? '', /cannot be re-run/);
    assert.equal(await requestCount(ctx.api, 'Admin/DeleteMasterPlayerAccount'), deletes);

    await vscode.commands.executeCommand('platformExplorer.clearActivityFilter');
    rows = await shown();
    assert.equal(rows.length, 2, 'the refused re-run is not an operation');
    const lookup = ctx.api.activityView.getChildren().find((i) => i.entry.operation === 'GetPlayedTitleList')!;
    const item = await vscode.commands.executeCommand<string>('platformExplorer.copyActivityJson', lookup);
    assert.equal((JSON.parse(item) as ActivityEntry).operation, 'GetPlayedTitleList');
    // The view's title bar passes the focused entry: its Copy copies every entry shown all the same.
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { menus: Record<string, { command: string; when?: string }[]> } };
    const titleBar = manifest.contributes.menus['view/title'].filter((m) => /view == platformExplorer\.activity\b/.test(m.when ?? '')).map((m) => m.command);
    const copy = titleBar.find((c) => /copy/i.test(c))!;
    const all = await vscode.commands.executeCommand<string>(copy, lookup);
    assert.equal((JSON.parse(all) as ActivityEntry[]).length, 2, 'the title bar copied one entry, not all shown');

    // Re-run asks for the PlatformId again (the history keeps none) and runs for the same title.
    const before = await requestCount(ctx.api, 'Admin/GetPlayedTitleList');
    const again = script(ctx.api).typeIn(OTHER.platformId);
    assert.deepEqual(await vscode.commands.executeCommand('platformExplorer.rerunActivity', lookup), OTHER.playedTitles);
    again.assertDone();
    assert.equal(await requestCount(ctx.api, 'Admin/GetPlayedTitleList'), before + 1);
    assert.equal((await shown())[0].entry.operation, 'GetPlayedTitleList');

    // Clear asks first; Cancel keeps everything.
    script(ctx.api).press(undefined);
    await vscode.commands.executeCommand('platformExplorer.clearActivity');
    assert.equal(ctx.api.activity.all().length, 3);
    script(ctx.api).press('Clear');
    await vscode.commands.executeCommand('platformExplorer.clearActivity');
    assert.deepEqual(ctx.api.activity.all(), []);
    assert.deepEqual(ctx.api.activityView.getChildren(), []);
  });

  it('keeps the newest 500 entries and drops malformed ones', async () => {
    const base = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < 510; i++) {
      await ctx.api.activity.add({ time: new Date(base + i * 1000).toISOString(), command: 'platformExplorer.showPlayedTitles', operation: 'GetPlayedTitleList', titleId: RACER.titleId, outcome: 'succeeded', durationMs: i });
    }
    await ctx.api.activity.add({ time: 'now', command: 'platformExplorer.showPlayedTitles', operation: 'GetPlayedTitleList', outcome: 'succeeded', durationMs: 1 });
    await ctx.api.activity.add({ time: new Date().toISOString(), command: 'platformExplorer.x', operation: 'Secret key=abc', outcome: 'succeeded', durationMs: 1 });
    const all = ctx.api.activity.all();
    assert.equal(all.length, 500);
    assert.equal(all[0].durationMs, 10);
    assert.equal(all[499].durationMs, 509);
  });
});
