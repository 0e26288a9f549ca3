// Delete Master Player Accounts from List… reads exactly what the user pointed at, whichever way
// it was started: the editor's context menu (VS Code passes the document's URI) reads the
// selection, never the whole file; the explorer's menu (the URI and the explorer's selection)
// reads the file; the palette reads the active editor's selection. Nothing is sent: the modal is
// dismissed after the dry run.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import { requestCount, script, useFreshExtension } from './support/harness';

const RACER = DEMO_TITLES[0];
const COMMAND = 'platformExplorer.deleteMasterPlayerAccountsFromList';
const IDS = DEMO_PLAYERS.filter((p) => p.playedTitles.includes(RACER.titleId) && !p.banned).slice(-5).map((p) => p.platformId);

interface Outcome { plan?: { entries: { status: string; value?: string }[] }; source?: string }

describe('Delete Master Player Accounts from List: every entry point reads what the user pointed at', () => {
  const ctx = useFreshExtension({ emulator: true });
  let dir: string;
  let file: vscode.Uri;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'pe-list-source-'));
    const path = join(dir, 'players.txt');
    writeFileSync(path, IDS.join('\n') + '\n');
    file = vscode.Uri.file(path);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Opens the list file with lines 2 and 3 selected. */
  async function selectTwoLines(): Promise<vscode.TextEditor> {
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
    const wanted = new vscode.Selection(1, 0, 3, 0);
    for (let i = 0; i < 200 && !(vscode.window.activeTextEditor === editor && editor.selection.isEqual(wanted)); i++) {
      editor.selection = wanted;
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.ok(editor.selection.isEqual(wanted), 'the selection did not hold');
    return editor;
  }

  /** Runs the command up to its question after the dry run, dismisses it, and returns what it asked. */
  async function dryRun(...args: unknown[]): Promise<string> {
    const p = script(ctx.api).typeIn('').typeIn(undefined);
    await vscode.commands.executeCommand<Outcome>(COMMAND, ...args);
    assert.deepEqual(p.unexpected, []);
    assert.equal(p.inputs.length, 2, 'the ticket, then the question');
    return p.inputs[1].options.title ?? '';
  }

  it('the editor context menu (the document URI) plans the selected lines only', async () => {
    await selectTwoLines();
    assert.match(await dryRun(file), /Delete 2 master player accounts through Demo Racer \(F71AC\)\?/);
    assert.equal(await requestCount(ctx.api, 'Admin/DeleteMasterPlayerAccount'), 0);
  });

  it('the palette (no argument) plans the same selected lines', async () => {
    await selectTwoLines();
    assert.match(await dryRun(), /Delete 2 master player accounts through Demo Racer \(F71AC\)\?/);
  });

  it('the explorer context menu (the URI and the explorer selection) plans the whole file, even while it is open with a selection', async () => {
    await selectTwoLines();
    assert.match(await dryRun(file, [file]), /Delete 5 master player accounts through Demo Racer \(F71AC\)\?/);
  });

  it('ticket lines selected in a Markdown file: each PlatformId planned, numbered by the file\'s lines, with the line it came from', async () => {
    const path = join(dir, 'support-tickets.md');
    writeFileSync(path, ['# Tickets', '', `- SUPPORT-1: delete ${IDS[0]} please`, `- SUPPORT-2: players ${IDS[1]}, ${IDS[2]}`, `- SUPPORT-3: ${IDS[3]}`, ''].join('\n'));
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(path)));
    const wanted = new vscode.Selection(3, 0, 5, 0);
    for (let i = 0; i < 200 && !editor.selection.isEqual(wanted); i++) {
      editor.selection = wanted;
      await new Promise((r) => setTimeout(r, 25));
    }
    // No "What does the list hold?" step: every selected line holds a PlatformId.
    const p = script(ctx.api).typeIn('').typeIn(undefined);
    await vscode.commands.executeCommand(COMMAND, vscode.Uri.file(path));
    assert.deepEqual(p.unexpected, []);
    const doc = vscode.workspace.textDocuments.map((d) => d.getText()).find((t) => t.startsWith('Deletion plan (dry run)') && t.includes('SUPPORT-2')) ?? '';
    assert.ok(doc.includes(`line 4: ${IDS[1]} (in "- SUPPORT-2: players ${IDS[1]}, ${IDS[2]}")`), doc);
    assert.ok(doc.includes(`line 4: ${IDS[2]} (in "- SUPPORT-2: players ${IDS[1]}, ${IDS[2]}")`), doc);
    assert.ok(doc.includes(`line 5: ${IDS[3]} (in "- SUPPORT-3: ${IDS[3]}")`), doc);
    assert.match(doc, /Invalid format: 0/);
    // Activity: nothing was sent, and it says so under a readable name.
    const entry = ctx.api.activity.all().at(-1);
    assert.equal(entry?.note, 'dry run');
    assert.equal(entry?.operation, 'DeleteMasterPlayerAccount');
    assert.doesNotMatch(doc, /SUPPORT-1/);
    assert.match(p.inputs[1].options.title ?? '', /Delete 3 master player accounts/);
  });

  it('several files selected in the explorer are refused with what to do, and nothing is planned', async () => {
    const other = vscode.Uri.file(join(dir, 'other.txt'));
    writeFileSync(other.fsPath, `${IDS[0]}\n`);
    const p = script(ctx.api);
    await vscode.commands.executeCommand(COMMAND, file, [file, other]);
    assert.match(p.errors.join('\n'), /Select one list file at a time/);
    assert.equal(p.confirms.length, 0);
  });
});
