// Player IDs in files: the hover card on a PlatformId, Copy PlatformId from the cursor and
// from a hover link, no card on things that only look like IDs, and Find PlatformIds in This File.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import { closeAllEditors, script, useFreshExtension, openText } from './support/harness';

const RACER = DEMO_TITLES[0];
const PLAYER = DEMO_PLAYERS[1];

// One line per case: [text, does it hold a PlatformId at column `at`?]
const FIXTURE = [
  `2026-11-02T10:00:01Z deleted player ${PLAYER.platformId} on request`,
  'commit 3f9a2c4e5b6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f merged',
  'color: #A1B2C3D4E5F6A7; total 1234567890123456 coins',
  'ordinary words like DEADBEEFCAFE and FACEFEEDBADDECAF',
].join('\n');

async function openFixture(): Promise<vscode.TextEditor> {
  return openText(FIXTURE, { language: 'log', selections: [new vscode.Selection(0, 0, 0, 0)] });
}

function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
    .join('\n');
}

async function hoversAt(doc: vscode.TextDocument, line: number, character: number): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(line, character));
  return hoverText(hovers ?? []);
}

describe('Player IDs in files', () => {
  const ctx = useFreshExtension({ emulator: true });

  it('a PlatformId gets a hover card with the allow-listed actions; look-alikes get none', async () => {
    const editor = await openFixture();
    const doc = editor.document;
    const col = doc.lineAt(0).text.indexOf(PLAYER.platformId) + 3;
    const card = await hoversAt(doc, 0, col);
    assert.ok(card.includes(PLAYER.platformId), `hover should name ${PLAYER.platformId}: ${card}`);
    for (const command of ['showPlayedTitles', 'copyPlatformId', 'deleteMasterPlayerAccount']) {
      assert.ok(card.includes(`command:platformExplorer.${command}?`), `hover should link ${command}`);
    }
    // A commit hash, a colour, a decimal number: none of them is offered as a PlatformId.
    for (const [line, needle] of [[1, '3f9a2c4e'], [2, 'A1B2C3'], [2, '1234567890']] as const) {
      const text = await hoversAt(doc, line, doc.lineAt(line).text.indexOf(needle) + 2);
      assert.ok(!text.includes('PlatformId'), `no PlatformId card expected on "${needle}": ${text}`);
    }
  });

  it('the hover on a PlatformId the ledger shows as deleted says so before offering Delete', async () => {
    await ctx.api.jobs.add({
      input: PLAYER.platformId, platformId: PLAYER.platformId, titleId: RACER.titleId, titleIds: [RACER.titleId],
      requestedAt: '2026-11-01T09:00:00.000Z', state: 'verified-deleted', verifiedAt: '2026-11-02T10:15:00.000Z', jobReceiptId: 'R-HOVER',
    });
    const editor = await openFixture();
    const card = await hoversAt(editor.document, 0, editor.document.lineAt(0).text.indexOf(PLAYER.platformId) + 3);
    // In this machine's time zone, with the zone said (run with TZ=Asia/Tokyo: "2026-11-02 19:15 GMT+9"), never raw ISO.
    const at = new Date('2026-11-02T10:15:00.000Z');
    const hhmm = [at.getHours(), at.getMinutes()].map((n) => String(n).padStart(2, '0')).join(':');
    const said = card.search(new RegExp(`Already deleted in title ${RACER.titleId} \\(ledger, verified 2026-11-0\\d ${hhmm} (UTC|GMT[+-]\\d+(:\\d\\d)?|[A-Z]{3,4})\\)`));
    assert.ok(said >= 0, `${hhmm}: ${card}`);
    if (at.getTimezoneOffset() !== 0) assert.ok(!card.includes('10:15'), `not UTC: ${card}`);
    assert.ok(!card.includes('2026-11-02T'), 'no raw ISO');
    assert.ok(said < card.indexOf('command:platformExplorer.deleteMasterPlayerAccount?'), 'said before Delete is offered');
  });

  it('Copy PlatformId copies the ID under the cursor, and the one a hover link names', async () => {
    const editor = await openFixture();
    const col = editor.document.lineAt(0).text.indexOf(PLAYER.platformId) + 5;
    editor.selection = new vscode.Selection(0, col, 0, col);
    const p = script(ctx.api);
    assert.equal(await vscode.commands.executeCommand('platformExplorer.copyPlatformId'), PLAYER.platformId);
    assert.equal(await vscode.env.clipboard.readText(), PLAYER.platformId);
    assert.match(p.statuses[0], new RegExp(`Copied PlatformId ${PLAYER.platformId}`));

    const other = DEMO_PLAYERS[2].platformId;
    assert.equal(await vscode.commands.executeCommand('platformExplorer.copyPlatformId', { platformId: other }), other);
    assert.equal(await vscode.env.clipboard.readText(), other);
  });

  it('Copy PlatformId with the cursor on no ID says what to do and copies nothing', async () => {
    const editor = await openFixture();
    editor.selection = new vscode.Selection(3, 2, 3, 2);
    await vscode.env.clipboard.writeText('unchanged');
    const p = script(ctx.api);
    assert.equal(await vscode.commands.executeCommand('platformExplorer.copyPlatformId'), undefined);
    assert.equal(p.errors.length, 1);
    assert.match(p.errors[0], /no PlatformId under the cursor/);
    assert.equal(await vscode.env.clipboard.readText(), 'unchanged');
  });

  it('a hover link runs Show Played Titles for its PlatformId', async () => {
    const p = script(ctx.api);
    const played = await vscode.commands.executeCommand<string[]>('platformExplorer.showPlayedTitles', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    p.assertDone();
    assert.deepEqual(played, PLAYER.playedTitles);
  });

  it('Find PlatformIds in This File selects each PlatformId (one cursor each) and says how many', async () => {
    const other = DEMO_PLAYERS[2].platformId;
    const text = [`refund ${PLAYER.platformId}, ${other}`, 'commit 3f9a2c4e5b6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f; total 1234567890123456', `again: ${PLAYER.platformId}`].join('\n');
    const editor = await openText(text, { selections: [new vscode.Selection(0, 0, 0, 0)] });
    const p = script(ctx.api);
    const found = await vscode.commands.executeCommand('platformExplorer.findPlatformIds');
    assert.deepEqual(found, { found: 3, distinct: 2, selected: 3 });
    assert.deepEqual(editor.selections.map((sel) => editor.document.getText(sel)), [PLAYER.platformId, other, PLAYER.platformId]);
    assert.deepEqual(p.infos, ['Selected 3 PlatformIds (2 distinct).']);
    assert.deepEqual(p.errors, []);
  });

  it('Find PlatformIds in This File caps the cursors in a huge file, says so, and explains when nothing is open', async () => {
    const ids = Array.from({ length: 12_000 }, (_, i) => (0x9437a5addae30000n + BigInt(i) * 7919n).toString(16).toUpperCase());
    const editor = await openText(ids.map((id) => `player ${id} ok`).join('\n'), { selections: [new vscode.Selection(0, 0, 0, 0)] });
    let p = script(ctx.api);
    const found = await vscode.commands.executeCommand('platformExplorer.findPlatformIds');
    assert.deepEqual(found, { found: 12_000, distinct: 12_000, selected: 10_000 });
    assert.equal(editor.selections.length, 10_000);
    assert.equal(editor.document.getText(editor.selections[9_999]), ids[9_999]);
    assert.deepEqual(p.infos, ['Selected the first 10000 of 12000 PlatformIds (12000 distinct).']);

    await closeAllEditors();
    p = script(ctx.api);
    assert.equal(await vscode.commands.executeCommand('platformExplorer.findPlatformIds'), undefined);
    assert.equal(p.errors.length, 1);
    assert.match(p.errors[0], /No file is open in the editor\. Open a file/);
  });
});
