// Result documents are named with the title, the time and, for ConsoleLive, the sandbox.
import * as assert from 'node:assert/strict';
import { posix } from 'node:path';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import { closeAllEditors, documentText, script, useFreshExtension } from './support/harness';

const RACER = DEMO_TITLES[0];
const PLAYER = DEMO_PLAYERS.find((p) => p.storefrontNames.length > 0 && p.consoleLive.length > 0 && !p.banned)!;
const STAMP = '\\d{4}-\\d\\d-\\d\\d \\d\\d\\.\\d\\d\\.\\d\\d UTC';

describe('Result documents', () => {
  const ctx = useFreshExtension({ emulator: true });

  it('are named with the title, the time and the ConsoleLive sandbox; a second one in the same second gets its own name', async () => {
    const live = PLAYER.consoleLive[0];
    script(ctx.api).typeIn(live.sandbox);
    const a = await vscode.commands.executeCommand<{ document: vscode.Uri }>('platformExplorer.lookUpConsoleLiveIds', { titleId: RACER.titleId, ids: [live.id] });
    const name = posix.basename(a!.document.path);
    assert.match(name, new RegExp(`^Demo Racer \\(F71AC\\) ConsoleLive lookup ${live.sandbox.replace('.', '\\.')} ${STAMP}\\.json$`));
    assert.equal(JSON.parse(documentText(a!.document)).linked, 1);
    assert.equal(vscode.window.activeTextEditor?.document.languageId, 'json');
    assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, name);

    script(ctx.api);
    const b = await vscode.commands.executeCommand<{ document: vscode.Uri }>('platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId, names: [PLAYER.storefrontNames[0]] });
    script(ctx.api);
    const c = await vscode.commands.executeCommand<{ document: vscode.Uri }>('platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId, names: [PLAYER.storefrontNames[0]] });
    assert.match(posix.basename(b!.document.path), new RegExp(`^Demo Racer \\(F71AC\\) Storefront lookup ${STAMP}`));
    assert.notEqual(b!.document.toString(), c!.document.toString());
    assert.equal(JSON.parse(documentText(c!.document)).linked, 1);
  });

  it('are read-only and never dirty: two results close without a save prompt and leave no unsaved document', async () => {
    const names = PLAYER.storefrontNames.slice(0, 1);
    script(ctx.api);
    const a = await vscode.commands.executeCommand<{ document: vscode.Uri }>('platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId, names });
    script(ctx.api).typeIn(PLAYER.consoleLive[0].sandbox);
    const b = await vscode.commands.executeCommand<{ document: vscode.Uri }>('platformExplorer.lookUpConsoleLiveIds', { titleId: RACER.titleId, ids: [PLAYER.consoleLive[0].id] });
    const docs = [a!.document, b!.document].map((u) => vscode.workspace.textDocuments.find((d) => d.uri.toString() === u.toString())!);
    for (const d of docs) {
      assert.ok(d, 'the result is open');
      assert.equal(d.isDirty, false, `${d.uri.path} is dirty`);
      assert.equal(d.isUntitled, false);
      assert.equal(JSON.parse(d.getText()).linked, 1);
    }
    assert.match(posix.basename(docs[0].uri.path), new RegExp(`^Demo Racer \\(F71AC\\) Storefront lookup ${STAMP}( \\(\\d+\\))?\\.json$`));
    // Typing into a result changes nothing: it is read-only.
    await vscode.window.showTextDocument(docs[0]);
    await vscode.commands.executeCommand('type', { text: 'x' });
    assert.equal(docs[0].isDirty, false);
    assert.equal(JSON.parse(docs[0].getText()).linked, 1);

    // Plain Close (not Revert and Close): a dirty document would leave its tab open behind a save prompt.
    for (let i = 0; i < 10 && vscode.window.tabGroups.all.some((g) => g.tabs.length > 0); i++) {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
    assert.deepEqual(vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label)), [], 'a tab stayed open');
    assert.deepEqual(vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => d.uri.toString()), [], 'an unsaved document remains');
    await closeAllEditors();
  });
});
