// The Emulator Requests view in a real VS Code: live from the running emulator's request log,
// filtered, an entry opened as a JSON document; no key or token anywhere in what it shows.
import * as assert from 'node:assert/strict';
import { posix } from 'node:path';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES, DEMO_UNLINKED } from '../../src/emulator/seed';
import { EmulatorRequestsView, type EmulatorRequestEntry } from '../../src/extension/views/emulatorRequestsView';
import { emu, script, useFreshExtension } from './support/harness';

const RACER = DEMO_TITLES[0];
const PLAYER = DEMO_PLAYERS.find((p) => p.playedTitles.includes(RACER.titleId) && !p.banned)!;

/** The rows the view shows now (the filter command returns them; '' keeps every row). */
const rows = (filter = ''): Thenable<EmulatorRequestEntry[]> => vscode.commands.executeCommand<EmulatorRequestEntry[]>('platformExplorer.filterEmulatorRequests', filter);

/** Waits until the view shows rows that satisfy `ok` (bounded). */
async function until(ok: (r: EmulatorRequestEntry[]) => boolean, what: string): Promise<EmulatorRequestEntry[]> {
  let last: EmulatorRequestEntry[] = [];
  for (let i = 0; i < 200; i++) {
    last = await rows();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the view never showed ${what}; it shows ${JSON.stringify(last.map((e) => [e.seq, e.operation, e.status]))}`);
}

describe('Emulator Requests view', () => {
  const ctx = useFreshExtension({ emulator: true });

  it('shows every request live, filters, opens an entry as JSON, and never shows a key or token', async () => {
    await vscode.commands.executeCommand('platformExplorer.emulatorRequests.focus');
    await vscode.commands.executeCommand('platformExplorer.refreshEmulatorRequests');
    // Only what this test sends counts: an earlier request (another test's, a background check) is older.
    const beforeSeq = Math.max(0, ...(await rows()).map((e) => e.seq));
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.showPlayedTitles', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.showPlayedTitles', { titleId: RACER.titleId, platformId: DEMO_UNLINKED.platformId });
    const { IdentityToken } = await emu<{ IdentityToken: string }>(ctx.api, 'POST', 'launcher-token', { titleId: RACER.titleId, subject: PLAYER.launcherSubject ?? 'x' });
    script(ctx.api).choose('Paste an IdentityToken').typeIn(IdentityToken).choose('Sign in only').chooseMany([]).typeIn('');
    await vscode.commands.executeCommand('platformExplorer.testLauncherLogin', { titleId: RACER.titleId });

    // Live: the rows arrive from the stream without a refresh.
    const fresh = (r: EmulatorRequestEntry[]): EmulatorRequestEntry[] => r.filter((e) => e.seq > beforeSeq);
    const shown = fresh(await until((r) => fresh(r).length >= 3 && fresh(r).some((e) => e.operation === 'Server/LoginWithLauncher'), 'the three requests'));
    // Each row by the PlatformId it asked about (a retry under load may add a row of its own).
    const playedRow = (platformId: string): EmulatorRequestEntry | undefined => shown.find((e) => e.operation === 'Admin/GetPlayedTitleList'
      && (e.request as { PlatformId?: string } | undefined)?.PlatformId === platformId);
    const unlinked = playedRow(DEMO_UNLINKED.platformId)!;
    const found = playedRow(PLAYER.platformId)!;
    assert.deepEqual([unlinked, found].map((e) => e && [e.titleId, e.status, e.error, e.credential]), [
      [RACER.titleId, 400, 'AccountNotFound', 'secretKey'],
      [RACER.titleId, 200, null, 'secretKey'],
    ], 'with title, status, error and credential kind');
    assert.ok(shown.indexOf(unlinked) < shown.indexOf(found), 'newest first');
    // AccountNotFound (what a verification of a deletion expects) is an answer: its own word and icon, not the error icon.
    const view = new EmulatorRequestsView(() => undefined, () => Promise.resolve(undefined));
    const notFound = view.getTreeItem(unlinked);
    assert.equal((notFound.iconPath as vscode.ThemeIcon).id, 'circle-slash');
    assert.match(String(notFound.description), /account not found \(an answer, not an error\)/);
    assert.equal((view.getTreeItem(found).iconPath as vscode.ThemeIcon).id, 'pass');
    view.dispose();
    const text = JSON.stringify(shown);
    assert.ok(!text.includes(RACER.secretKey), 'the secret key is not shown');
    assert.ok(!text.includes(IdentityToken), 'the identity token is not shown');
    const login = shown.find((e) => e.operation === 'Server/LoginWithLauncher')!;
    assert.equal((login.request as { IdentityToken: string }).IdentityToken, '***');

    // Filter: only matching rows.
    const filtered = await rows('AccountNotFound');
    assert.ok(filtered.length > 0 && filtered.every((e) => e.error === 'AccountNotFound'), 'only the AccountNotFound rows');
    assert.ok(filtered.some((e) => e.seq === unlinked.seq));

    // Open an entry: a read-only JSON result named after it (not Untitled-1), with both bodies, masked.
    const doc = await vscode.commands.executeCommand<vscode.TextDocument>('platformExplorer.openEmulatorRequest', found.seq);
    assert.equal(doc.languageId, 'json');
    assert.equal(vscode.window.activeTextEditor?.document, doc);
    assert.equal(doc.isUntitled, false, 'an untitled document asks to be saved on close');
    assert.equal(doc.uri.scheme, 'platform-result');
    assert.match(posix.basename(doc.uri.path), new RegExp(`^Demo Racer \\(${RACER.titleId}\\) Emulator request ${found.seq} GetPlayedTitleList \\d{4}-\\d\\d-\\d\\d [\\d.]+ UTC\\.json$`));
    await vscode.commands.executeCommand('type', { text: 'x' });
    assert.equal(doc.isDirty, false, 'typing changed the result');
    const opened = JSON.parse(doc.getText()) as EmulatorRequestEntry;
    assert.deepEqual(opened.request, { PlatformId: PLAYER.platformId });
    assert.deepEqual((opened.response as { data: { TitleIds: string[] } }).data.TitleIds.sort(), [...PLAYER.playedTitles].sort());
    assert.ok(!doc.getText().includes(RACER.secretKey));

    // The emulator stops: the view empties and says so.
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.stopEmulator');
    const after = await vscode.commands.executeCommand<EmulatorRequestEntry[]>('platformExplorer.refreshEmulatorRequests');
    assert.deepEqual(after, []);
  });
});
