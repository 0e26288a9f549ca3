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

  // Issue 30: the Titles view's menus mixed "Platform: Show Played Titles" with "Set Secret Key".
  it('menu entries read the title alone (the Titles view\'s title bar and context menu too); the palette says "Platform:" once', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const manifest = JSON.parse(readFileSync(join(ext.extensionPath, 'package.json'), 'utf8')) as {
      contributes: { commands: { command: string; title: string; category?: string }[]; menus: Record<string, { command?: string; when?: string }[]> };
    };
    const nls = JSON.parse(readFileSync(join(ext.extensionPath, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const text = (s: string | undefined): string => (s === undefined ? '' : s.replace(/^%(.+)%$/, (_, k: string) => nls[k] ?? s));
    const command = (id: string): { command: string; title: string; category?: string } => manifest.contributes.commands.find((c) => c.command === id)!;
    const inTitles = (menu: string): string[] => (manifest.contributes.menus[menu] ?? [])
      .filter((i) => i.command !== undefined && /view == platformExplorer\.titles\b/.test(i.when ?? '')).map((i) => text(command(i.command!).title));
    const titleBar = inTitles('view/title');
    const itemMenu = inTitles('view/item/context');
    assert.ok(titleBar.includes('Add Title') && itemMenu.includes('Show Played Titles') && itemMenu.includes('Set Secret Key'), JSON.stringify({ titleBar, itemMenu }));
    const menus = Object.entries(manifest.contributes.menus).filter(([menu]) => menu !== 'commandPalette');
    const prefixed = menus.flatMap(([menu, items]) => items.filter((i) => i.command !== undefined)
      .map((i) => `${menu}: ${text(command(i.command!).title)}`)).filter((shown) => /: Platform:/.test(shown));
    assert.deepEqual(prefixed, [], 'a menu shows the command\'s title as it is: none may hold the category');
    // The palette adds the category: every command it lists has one.
    const hidden = new Set(manifest.contributes.menus.commandPalette.filter((m) => m.when === 'false').map((m) => m.command));
    const bare = manifest.contributes.commands.filter((c) => !hidden.has(c.command) && c.category === undefined).map((c) => c.command);
    assert.deepEqual(bare, [], 'listed in the palette without "Platform:"');
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
