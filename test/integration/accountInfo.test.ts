// Platform: Look Up Account Info…: one account by PlatformId, e-mail, username or title display
// name (typed, or from the argument), shown as a JSON result document; one request each; Activity
// names it GetUserAccountInfo and offers a re-run (it only reads).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import { documentText, emu, requestCount, script, useFreshExtension } from './support/harness';

const RACER = DEMO_TITLES[0];
const PLAYER = DEMO_PLAYERS.find((p) => p.playedTitles.includes(RACER.titleId) && p.displayName !== undefined && !p.banned)!;
const OP = 'Admin/GetUserAccountInfo';

interface Summary { titleId: string; lookedUpBy: string; document: vscode.Uri }
interface Shown { titleId: string; lookedUpBy: Record<string, string>; UserInfo: { PlatformId: string; Username?: string; PrivateInfo?: { Email?: string }; TitleInfo?: { DisplayName?: string } } }

describe('Look Up Account Info', () => {
  const ctx = useFreshExtension({ emulator: true });

  async function listed(): Promise<{ email: string; username: string }> {
    const { players } = await emu<{ players: { PlatformId: string; email: string; username: string }[] }>(ctx.api, 'GET', 'players');
    return players.find((p) => p.PlatformId === PLAYER.platformId)!;
  }

  it('from the palette: pick the kind of identifier, type it, get the account in a JSON document; one request', async () => {
    const { email } = await listed();
    const p = script(ctx.api).choose('E-mail address').typeIn(email.toUpperCase());
    const summary = await vscode.commands.executeCommand<Summary>('platformExplorer.lookUpAccountInfo', { titleId: RACER.titleId });
    p.assertDone();
    assert.deepEqual(p.picks[0].items.map((i) => i.label), ['PlatformId', 'E-mail address', 'Username', 'Display name in this title']);
    const text = documentText(summary.document);
    const shown = JSON.parse(text) as Shown;
    assert.equal(shown.titleId, RACER.titleId);
    assert.deepEqual(shown.lookedUpBy, { Email: email.toUpperCase() });
    assert.equal(shown.UserInfo.PlatformId, PLAYER.platformId);
    assert.equal(shown.UserInfo.PrivateInfo?.Email, email);
    assert.ok(!text.includes(RACER.secretKey), 'no secret key in the document');
    assert.equal(vscode.window.activeTextEditor?.document.languageId, 'json');
    assert.equal(await requestCount(ctx.api, OP), 1);
  });

  it('from an argument, by PlatformId, username or title display name: no question asked; Activity offers a re-run', async () => {
    const { username } = await listed();
    for (const arg of [{ platformId: PLAYER.platformId }, { username }, { titleDisplayName: PLAYER.displayName! }]) {
      const p = script(ctx.api);
      const summary = await vscode.commands.executeCommand<Summary>('platformExplorer.lookUpAccountInfo', { titleId: RACER.titleId, ...arg });
      p.assertDone();
      assert.equal((JSON.parse(documentText(summary.document)) as Shown).UserInfo.PlatformId, PLAYER.platformId, JSON.stringify(arg));
    }
    assert.equal(await requestCount(ctx.api, OP), 3);
    const [item] = ctx.api.activityView.getChildren();
    assert.equal(item.entry.operation, 'GetUserAccountInfo');
    assert.match(ctx.api.activityView.getTreeItem(item).contextValue ?? '', /\brerunnable\b/);
  });

  it('a PlatformId typed in the wrong format is refused by the input box; an unknown account is an error with its fix', async () => {
    const bad = script(ctx.api).choose('PlatformId').typeIn('not-an-id');
    await vscode.commands.executeCommand('platformExplorer.lookUpAccountInfo', { titleId: RACER.titleId });
    assert.match(bad.inputs[0].validation ?? '', /PlatformId "not-an-id" is not valid/);
    const p = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.lookUpAccountInfo', { titleId: RACER.titleId, email: 'nobody@nowhere.example' });
    assert.equal(p.errors.length, 1);
    assert.match(p.errors[0], /AccountNotFound|1001/);
    assert.equal(await requestCount(ctx.api, OP), 1, 'the refused PlatformId was never sent');
  });
});
