// A selection of several PlatformIds (issue 13, Selections): the editor's context menu offers Show
// Played Titles for all of them and the batch deletion; Show Played Titles with several IDs opens
// one result document (found, account not found, invalid, duplicates folded), sends one request
// per distinct valid ID, and Cancel keeps the players checked so far.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { csvField } from '../../src/core/csv';
import { validatePlatformId } from '../../src/core/ids';
import { DEMO_PLAYERS, DEMO_TITLES, DEMO_UNLINKED } from '../../src/emulator/seed';
import type { PlayedTitlesSummary } from '../../src/extension/commands/showPlayedTitles';
import type { TestApi } from '../../src/extension/testApi';
import { documentText, emu, EXTENSION_ID, requestCount, script, titleItem, resultsOpenedDuring, useFreshExtension, openText } from './support/harness';

const RACER = DEMO_TITLES[0];
const PLAYED = 'Admin/GetPlayedTitleList';
const TWO = DEMO_PLAYERS.find((p) => p.playedTitles.length === 2)!;
const ONE = DEMO_PLAYERS.find((p) => p.playedTitles.length === 1 && p.playedTitles[0] === RACER.titleId)!;
const NOBODY = DEMO_UNLINKED.platformId;

type Summary = PlayedTitlesSummary;

interface Row {
  PlatformId: string;
  Status: string;
  TitleIds?: string[];
  Titles?: string[];
  Reason?: string;
}

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(ok(), `timed out waiting for ${what}`);
}

/** Opens `content` and selects `ranges` (all of it by default). */
const select = (content: string, ranges?: vscode.Selection[]): Promise<vscode.TextEditor> => openText(content, { selections: ranges });

/**
 * A `when` clause of the editor's context menu, evaluated the way VS Code does for the forms the
 * manifest uses there (`a && !b || c`): the extension's keys as it last set them, the selection's
 * own keys as given.
 */
function offered(api: TestApi, command: string, given: Record<string, boolean>): boolean {
  const menus = (vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { menus: Record<string, { command: string; when?: string }[]> } }).contributes.menus;
  const entry = menus['editor/context'].find((m) => m.command === command);
  assert.ok(entry, `${command} is not in the editor's context menu`);
  const value = (key: string): boolean => (key in given ? given[key] : api.contextValue(key as Parameters<TestApi['contextValue']>[0]) === true);
  return (entry.when ?? 'true').split('||').some((all) => all.split('&&').every((term) => {
    const t = term.trim();
    assert.match(t, /^!?[\w.]+$/, `a when-clause term this test cannot read: ${t}`);
    return t === 'true' || (t.startsWith('!') ? !value(t.slice(1)) : value(t));
  }));
}

const SELECTED = { editorTextFocus: true, editorHasSelection: true };

describe('Selections of several PlatformIds', () => {
  const ctx = useFreshExtension({ emulator: true });
  const hasIds = (): unknown => ctx.api.contextValue('platformExplorer.editorHasPlatformIds');

  afterEach(async () => {
    await vscode.workspace.getConfiguration('platformExplorer').update('lookupResultFormat', undefined, vscode.ConfigurationTarget.Global);
  });

  it('sets editorHasPlatformIds for several IDs (per line, comma-separated or one per cursor); the menu offers Show Played Titles and Delete … from List', async () => {
    const editor = await select([TWO.platformId, ONE.platformId, 'not-an-id', NOBODY].join('\n') + '\n');
    await until('editorHasPlatformIds', () => hasIds() === true);
    assert.equal(offered(ctx.api, 'platformExplorer.showPlayedTitles', SELECTED), true, 'Show Played Titles for the selection');
    assert.equal(offered(ctx.api, 'platformExplorer.deleteMasterPlayerAccountsFromList', SELECTED), true, 'the batch deletion');
    assert.equal(offered(ctx.api, 'platformExplorer.deleteMasterPlayerAccount', SELECTED), false, 'not the single deletion');

    // One PlatformId selected: the single actions, as before.
    editor.selection = new vscode.Selection(0, 0, 0, TWO.platformId.length);
    await until('a single PlatformId', () => hasIds() === false && ctx.api.contextValue('platformExplorer.editorHasPlatformId') === true);
    assert.equal(offered(ctx.api, 'platformExplorer.showPlayedTitles', SELECTED), true);
    assert.equal(offered(ctx.api, 'platformExplorer.deleteMasterPlayerAccount', SELECTED), true);

    // Comma-separated on one line.
    await select(`refunds: none\n${TWO.platformId}, ${ONE.platformId}\n`, [new vscode.Selection(1, 0, 1, 40)]);
    await until('comma-separated', () => hasIds() === true);

    // Lines of text with two PlatformIds in them (ticket lines) count; with one, or a 16-digit number, not.
    await select(`deleted player ${TWO.platformId} on request\nand ${ONE.platformId} too\n`);
    await until('IDs within text', () => hasIds() === true);
    await select(`deleted player ${TWO.platformId} on request\ntotal 1234567890123456 coins\n`);
    await until('only one ID in the text', () => hasIds() === false);
    assert.equal(offered(ctx.api, 'platformExplorer.showPlayedTitles', SELECTED), false);
    assert.equal(offered(ctx.api, 'platformExplorer.deleteMasterPlayerAccountsFromList', SELECTED), true, 'offered for any selection');

    // One cursor per ID, as Find PlatformIds in This File leaves them.
    await select(`deleted player ${TWO.platformId} on request\nand ${ONE.platformId} too\n`, [new vscode.Selection(0, 0, 0, 0)]);
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.findPlatformIds');
    await until('one cursor per ID', () => hasIds() === true);
  });

  it('Show Played Titles on a selection: one document, a row per distinct ID (found, account not found, invalid), one request per distinct valid ID', async () => {
    await select([TWO.platformId, ONE.platformId, 'not-an-id', TWO.platformId.toLowerCase(), NOBODY, ONE.platformId].join('\n') + '\n');
    await emu(ctx.api, 'POST', 'stats/reset');
    const p = script(ctx.api);
    const summary = await vscode.commands.executeCommand<Summary>('platformExplorer.showPlayedTitles', { titleId: RACER.titleId });
    p.assertDone();
    assert.equal(await requestCount(ctx.api, PLAYED), 3, 'one request per distinct valid PlatformId');
    assert.deepEqual(summary && [summary.found, summary.accountNotFound, summary.invalid, summary.duplicates, summary.cancelled], [2, 1, 1, 2, false]);

    const doc = JSON.parse(documentText(summary?.document)) as { titleId: string; found: number; accountNotFound: number; invalid: number; duplicatesFolded: number; results: Row[] };
    assert.equal(doc.titleId, RACER.titleId);
    assert.deepEqual([doc.found, doc.accountNotFound, doc.invalid, doc.duplicatesFolded], [2, 1, 1, 2]);
    assert.deepEqual(doc.results.map((r) => [r.PlatformId, r.Status]), [
      [TWO.platformId, 'found'],
      [ONE.platformId, 'found'],
      ['not-an-id', 'invalid'],
      [NOBODY, 'account not found'],
    ]);
    const names: Record<string, string> = Object.fromEntries(DEMO_TITLES.map((t) => [t.titleId, `${t.titleId} (${t.name})`]));
    assert.deepEqual([...doc.results[0].TitleIds!].sort(), [...TWO.playedTitles].sort());
    assert.deepEqual(doc.results[0].Titles, doc.results[0].TitleIds!.map((id) => names[id]), 'with the names of configured titles');
    assert.deepEqual(doc.results[1].TitleIds, ONE.playedTitles);
    assert.match(doc.results[2].Reason ?? '', /not valid/);
    assert.deepEqual(p.infos, ['Demo Racer (F71AC): played titles of 4 distinct PlatformIds: 2 found, 1 account not found, 1 invalid, not sent (the result says why); 2 duplicates folded.']);
    assert.equal(ctx.api.activity.all().at(-1)?.outcome, 'succeeded');
  });

  it('Show Played Titles on ticket text reads it by the batch\'s rule: a line whose PlatformId is malformed is reported with its line number and the bad ID quoted, not dropped', async () => {
    const malformed = ONE.platformId.slice(0, 13);
    await select([`Main account, the one I play on every day: ${TWO.platformId}`, `My old account from the other console, long gone now: ${malformed}`].join('\n') + '\n');
    await emu(ctx.api, 'POST', 'stats/reset');
    const p = script(ctx.api);
    const summary = await vscode.commands.executeCommand<Summary>('platformExplorer.showPlayedTitles', { titleId: RACER.titleId });
    p.assertDone();
    assert.equal(await requestCount(ctx.api, PLAYED), 1, 'only the valid PlatformId is sent');
    assert.deepEqual(summary && [summary.found, summary.invalid], [1, 1]);
    const doc = JSON.parse(documentText(summary?.document)) as { results: Row[] };
    assert.equal(doc.results[1].Status, 'invalid');
    assert.equal(doc.results[1].Reason, `line 2: The line holds no PlatformId: "${malformed}" has 13 hex characters; a PlatformId has 14 to 16 (0-9, A-F).`);
    assert.match(p.infos[0], /1 found, 0 account not found, 1 invalid, not sent \(the result says why\)/);
  });

  it('the platformIds argument: validated, CSV when set, and a single one keeps the message', async () => {
    await vscode.workspace.getConfiguration('platformExplorer').update('lookupResultFormat', 'csv', vscode.ConfigurationTarget.Global);
    let p = script(ctx.api);
    const summary = await vscode.commands.executeCommand<Summary>('platformExplorer.showPlayedTitles', { titleId: RACER.titleId, platformIds: [ONE.platformId, '=1+1', NOBODY] });
    p.assertDone();
    assert.equal(documentText(summary?.document), [
      'PlatformId,Status,PlayedTitles,Reason',
      `${ONE.platformId},found,${ONE.playedTitles.map((id) => `${id} (Demo Racer)`).join('; ')},`,
      `'=1+1,invalid,,${csvField(validatePlatformId('=1+1')!)}`,
      `${NOBODY},account not found,,`,
      '',
    ].join('\r\n'));

    p = script(ctx.api);
    const { result, opened } = await resultsOpenedDuring(() => vscode.commands.executeCommand('platformExplorer.showPlayedTitles', { titleId: RACER.titleId, platformIds: [ONE.platformId] }));
    p.assertDone();
    assert.deepEqual(result, ONE.playedTitles);
    assert.deepEqual(opened, [], 'one PlatformId: a message, no document');
    assert.match(p.infos[0], new RegExp(`Demo Racer \\(F71AC\\): PlatformId ${ONE.platformId} has played 1 title: F71AC \\(Demo Racer\\)\\.`));

    p = script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.showPlayedTitles', { titleId: RACER.titleId, platformIds: ONE.platformId });
    assert.match(p.errors[0] ?? '', /"platformIds" argument must be a list of strings/);
  });

  it('Cancel keeps the players checked so far; the rest are "not looked up"; Activity says cancelled', async () => {
    const ids = [TWO.platformId, ...Array.from({ length: 39 }, (_, i) => (0x9437a5addae30000n + BigInt(i) * 7919n).toString(16).toUpperCase())];
    await emu(ctx.api, 'POST', 'faults', { latencyMs: 150 });
    await emu(ctx.api, 'POST', 'stats/reset');
    const p = script(ctx.api);
    // The first report is the 0-of-N start; cancel on the first answer.
    p.cancelProgressAfterReports = 2;
    let summary: Summary | undefined;
    try {
      summary = await vscode.commands.executeCommand<Summary>('platformExplorer.showPlayedTitles', { titleId: RACER.titleId, platformIds: ids });
    } finally {
      await emu(ctx.api, 'POST', 'faults/clear');
    }
    p.assertDone();
    assert.ok(summary?.cancelled, 'cancelled');
    const doc = JSON.parse(documentText(summary.document)) as { cancelled: boolean; notLookedUp: number; results: Row[] };
    assert.equal(doc.cancelled, true);
    assert.equal(doc.results.length, 40);
    const checked = doc.results.filter((r) => r.Status !== 'not looked up');
    assert.deepEqual(checked[0], { PlatformId: TWO.platformId, Status: 'found', TitleIds: checked[0].TitleIds, Titles: checked[0].Titles }, 'the first answer is kept');
    assert.ok(checked.every((r) => r.Status === 'found' || r.Status === 'account not found'), JSON.stringify(checked));
    assert.ok(doc.notLookedUp >= 30 && doc.notLookedUp === 40 - checked.length, `${doc.notLookedUp} not looked up`);
    assert.ok(doc.results.filter((r) => r.Status === 'not looked up').every((r) => r.Reason === 'cancelled'));
    assert.ok(await requestCount(ctx.api, PLAYED) < 10, 'stopped early');
    assert.match(p.infos[0], new RegExp(`cancelled after checking ${checked.length} of 40 PlatformIds: .*the other ${doc.notLookedUp} are marked "not looked up"`));
    assert.equal(ctx.api.activity.all().at(-1)?.outcome, 'cancelled');
  });

  it('from the Platform view it never reads the selection: it asks for one PlatformId', async () => {
    await select([TWO.platformId, ONE.platformId].join('\n'));
    await until('editorHasPlatformIds', () => hasIds() === true);
    const node = (await titleItem(ctx.api, RACER.titleId)).node;
    const p = script(ctx.api).typeIn(ONE.platformId);
    const { result, opened } = await resultsOpenedDuring(() => vscode.commands.executeCommand('platformExplorer.showPlayedTitles', node));
    p.assertDone();
    assert.deepEqual(result, ONE.playedTitles);
    assert.deepEqual(opened, []);
  });

  it('ticket lines with PlatformIds in their text offer Show Played Titles for the IDs they hold', async () => {
    await select([
      `- Storefront name racer_ana_0: PlatformId ${TWO.platformId}`,
      `- refund asked for ${ONE.platformId} (ticket 1234567890123456)`,
      `- again ${TWO.platformId}; nothing else`,
    ].join('\n'));
    await until('editorHasPlatformIds', () => hasIds() === true);
    await emu(ctx.api, 'POST', 'stats/reset');
    const p = script(ctx.api);
    const summary = await vscode.commands.executeCommand<Summary>('platformExplorer.showPlayedTitles', { titleId: RACER.titleId });
    p.assertDone();
    assert.deepEqual(summary.rows.map((r) => [r.platformId, r.status]), [[TWO.platformId, 'found'], [ONE.platformId, 'found']]);
    assert.equal(await requestCount(ctx.api, PLAYED), 2);
  });

  it('the typed PlatformId may be several: commas, spaces or a pasted list\'s line breaks separate them', async () => {
    const node = (await titleItem(ctx.api, RACER.titleId)).node;
    await emu(ctx.api, 'POST', 'stats/reset');
    const p = script(ctx.api).typeIn(`${ONE.platformId}, ${TWO.platformId}  ${NOBODY.toLowerCase()}`);
    const summary = await vscode.commands.executeCommand<Summary>('platformExplorer.showPlayedTitles', node);
    p.assertDone();
    const check = p.inputs[0].options.validateInput!;
    assert.equal(await check(`${ONE.platformId} ${TWO.platformId}`), undefined);
    assert.match(String(await check(`${ONE.platformId} nope`)), /PlatformId "nope" is not valid.*Remove it/);
    assert.deepEqual(summary.rows.map((r) => [r.platformId, r.status]), [
      [ONE.platformId, 'found'], [TWO.platformId, 'found'], [NOBODY, 'account not found'],
    ]);
    assert.equal(await requestCount(ctx.api, PLAYED), 3);
  });

  it('Delete Master Player Accounts from List… takes every selection (one cursor per ID after Find PlatformIds)', async () => {
    await select(`refund ${TWO.platformId} and ${ONE.platformId}\nrefund ${NOBODY}\n`, [new vscode.Selection(0, 0, 0, 0)]);
    script(ctx.api);
    await vscode.commands.executeCommand('platformExplorer.findPlatformIds');
    // The question after the dry run: dismissed, so nothing is deleted.
    const p = script(ctx.api).typeIn(undefined);
    const { opened } = await resultsOpenedDuring(() => vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccountsFromList', { titleId: RACER.titleId, metaData: 'T-1' }));
    assert.deepEqual(p.unexpected, []);
    const dryRun = opened.find((d) => d.uri.path.includes('Deletion plan'));
    assert.ok(dryRun, 'no dry run opened');
    assert.match(dryRun.getText(), /: 3 PlatformIds/);
    assert.match(dryRun.getText(), /To delete: 2 · .*Already deleted: 1/);
    assert.equal(await requestCount(ctx.api, 'Admin/DeleteMasterPlayerAccount'), 0);
  });

  it('the lookups read every selection, not only the first', async () => {
    const name = DEMO_PLAYERS.find((x) => x.storefrontNames.length > 0)!.storefrontNames[0];
    const line = `refund ${name} and ${DEMO_UNLINKED.storefrontNames[0]}`;
    const at = (s: string): vscode.Selection => new vscode.Selection(0, line.indexOf(s), 0, line.indexOf(s) + s.length);
    // The second cursor first: the result keeps the document's order.
    await select(line, [at(DEMO_UNLINKED.storefrontNames[0]), at(name)]);
    const p = script(ctx.api);
    const summary = await vscode.commands.executeCommand<{ rows: { input: string }[]; linked: number; unlinked: number }>('platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId });
    p.assertDone();
    assert.deepEqual(summary?.rows.map((r) => r.input), [name, DEMO_UNLINKED.storefrontNames[0]]);
    assert.deepEqual([summary?.linked, summary?.unlinked], [1, 1]);
  });
});
