// package.json and the running extension agree on the commands: each declared command is
// registered in the host, each registered platformExplorer command is declared.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, getApi } from './support/harness';

describe('Commands: declared and registered', () => {
  before(async () => {
    await getApi();
  });

  it('every declared command is registered and every registered one is declared', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const declared = new Set<string>(
      ((ext.packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands).map((c) => c.command),
    );
    // VS Code adds `<viewId>.focus` and the like for every view; those are not ours to declare.
    const views = (ext.packageJSON as { contributes: { views: Record<string, { id: string }[]> } }).contributes.views.platformExplorer.map((v) => `${v.id}.`);
    const registered = new Set(
      (await vscode.commands.getCommands(true)).filter((c) => c.startsWith('platformExplorer.') && !views.some((v) => c.startsWith(v))),
    );
    assert.ok(declared.size >= 20, `only ${declared.size} commands declared`);
    assert.deepEqual([...declared].filter((c) => !registered.has(c)), [], 'declared but not registered');
    assert.deepEqual([...registered].filter((c) => !declared.has(c)), [], 'registered but not declared');
  });

  it('menu entries outside the Platform view say "Platform:", and the palette says it once', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const manifest = JSON.parse(readFileSync(join(ext.extensionPath, 'package.json'), 'utf8')) as {
      contributes: { commands: { command: string; title: string; category?: string }[]; menus: Record<string, { command?: string }[]> };
    };
    const nls = JSON.parse(readFileSync(join(ext.extensionPath, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const text = (s: string | undefined): string => (s === undefined ? '' : s.replace(/^%(.+)%$/, (_, k: string) => nls[k] ?? s));
    const outside = Object.entries(manifest.contributes.menus).filter(([menu]) => !menu.startsWith('view/') && menu !== 'commandPalette');
    assert.ok(outside.some(([menu]) => menu === 'editor/context') && outside.some(([menu]) => menu === 'explorer/context'));
    for (const [menu, items] of outside) {
      for (const item of items.filter((i) => i.command !== undefined)) {
        const cmd = manifest.contributes.commands.find((c) => c.command === item.command)!;
        // A menu shows the title alone; the palette shows "category: title".
        const shown = text(cmd.title);
        assert.match(shown, /^Platform: /, `${menu}: ${shown}`);
        assert.equal(cmd.category, undefined, `${cmd.command} would read "Platform: Platform: …" in the palette`);
      }
    }
  });

  it('node-only commands are hidden from the command palette', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const palette = (ext.packageJSON as { contributes: { menus: { commandPalette: { command: string; when: string }[] } } })
      .contributes.menus.commandPalette;
    for (const id of ['platformExplorer.copyJobReceiptId', 'platformExplorer.replaceSecretKey']) {
      assert.equal(palette.find((m) => m.command === id)?.when, 'false', `${id} should be hidden from the palette`);
    }
  });
});
