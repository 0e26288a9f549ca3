// Result documents are named with the title, the time and, for ConsoleLive, the sandbox.
import * as assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { posix } from 'node:path';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import { documentText, script, useFreshExtension } from './support/harness';

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
    // Save (no dialog for a named untitled document) puts it in the workspace folder, else home: never the root.
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.path ?? vscode.Uri.file(homedir()).path;
    assert.equal(posix.dirname(a!.document.path), folder.replace(/\/+$/, ''));
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
});
