// Look Up PlatformIds from ConsoleLive IDs / Storefront Names: input from arguments, the
// selection or typed; chunked bulk lookups; JSON and CSV results with unlinked entries
// marked; cancellation; service failures.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES, DEMO_UNLINKED } from '../../src/emulator/seed';
import type { TestApi } from '../../src/extension/testApi';
import { documentText, emu, getApi, requestCount, script, startEmulatorWithDemoTitles, startFresh, resultsOpenedDuring, openText } from './support/harness';

const RACER = DEMO_TITLES[0];
const retail = DEMO_PLAYERS.flatMap((p) => p.consoleLive.filter((c) => c.sandbox === 'RETAIL').map((c) => ({ id: c.id, platformId: p.platformId })));
const devOnly = DEMO_PLAYERS.flatMap((p) =>
  p.consoleLive.filter((c) => c.sandbox === 'XDKS.1').map((c) => ({ id: c.id, platformId: p.platformId })),
);
const names = DEMO_PLAYERS.flatMap((p) => p.storefrontNames.map((n) => ({ name: n, platformId: p.platformId })));

interface Summary {
  linked: number;
  unlinked: number;
  invalid: number;
  duplicates: number;
  rows: unknown[];
  document: vscode.Uri;
}

interface JsonResult {
  titleId: string;
  sandbox?: string;
  linked: number;
  unlinked: number;
  results: Record<string, string | null>[];
}

describe('PlatformId lookups', () => {
  let api: TestApi;

  before(async () => {
    api = await getApi();
    await startEmulatorWithDemoTitles(api);
  });

  beforeEach(async () => {
    await startFresh(api);
    await startEmulatorWithDemoTitles(api);
  });

  afterEach(async () => {
    await vscode.workspace.getConfiguration('platformExplorer').update('lookupResultFormat', undefined, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await startFresh(api);
  });

  it('ConsoleLive IDs: RETAIL by default, one entry per input in order, unlinked marked, summary shown', async () => {
    const ids = [retail[0].id, DEMO_UNLINKED.consoleLiveIds[0], retail[1].id, retail[0].id];
    const p = script(api).typeIn('RETAIL');
    const summary = await vscode.commands.executeCommand<Summary>('platformExplorer.lookUpConsoleLiveIds', { titleId: RACER.titleId, ids });
    p.assertDone();
    assert.equal(p.inputs[0].options.value, 'RETAIL', 'the Sandbox prompt should default to RETAIL');
    // Counted over distinct IDs: the repeated one is folded, and said so.
    assert.deepEqual(summary && { linked: summary.linked, unlinked: summary.unlinked, duplicates: summary.duplicates }, { linked: 2, unlinked: 1, duplicates: 1 });
    assert.equal(p.infos[0], `${RACER.name} (${RACER.titleId}): 3 ConsoleLive IDs: 2 linked, 1 unlinked; 1 duplicate folded.`);

    const doc = JSON.parse(documentText(summary?.document)) as JsonResult;
    assert.equal(doc.titleId, RACER.titleId);
    assert.equal(doc.sandbox, 'RETAIL');
    assert.deepEqual(doc.results, [
      { ConsoleLiveAccountId: retail[0].id, PlatformId: retail[0].platformId, Status: 'linked' },
      { ConsoleLiveAccountId: DEMO_UNLINKED.consoleLiveIds[0], PlatformId: null, Status: 'unlinked' },
      { ConsoleLiveAccountId: retail[1].id, PlatformId: retail[1].platformId, Status: 'linked' },
      { ConsoleLiveAccountId: retail[0].id, PlatformId: retail[0].platformId, Status: 'linked' },
    ]);
  });

  it('ConsoleLive IDs: "RETAIL" typed as an ID is not looked up; the message and Activity say nothing was sent, and one ID is "1 ConsoleLive ID"', async () => {
    const before = await requestCount(api, 'Server/GetPlatformIDsFromConsoleLiveIDs');
    let p = script(api).typeIn('RETAIL');
    await vscode.commands.executeCommand('platformExplorer.lookUpConsoleLiveIds', { titleId: RACER.titleId });
    p.assertDone();
    assert.equal(p.inputs.length, 1, 'no Sandbox question when there is nothing to look up');
    assert.equal(p.infos[0], `${RACER.name} (${RACER.titleId}): nothing was looked up: "RETAIL" is not a ConsoleLive ID: use its decimal digits only (up to 16). The Sandbox (e.g. RETAIL) is asked after the IDs.`);
    assert.equal(await requestCount(api, 'Server/GetPlatformIDsFromConsoleLiveIDs'), before);
    const entry = api.activityView.getChildren()[0].entry;
    assert.equal(entry.note, 'nothing sent, no valid ConsoleLive ID', JSON.stringify(entry));
    // One valid and one invalid: counted in the singular, no parentheses inside parentheses.
    p = script(api).typeIn('RETAIL');
    await vscode.commands.executeCommand('platformExplorer.lookUpConsoleLiveIds', { titleId: RACER.titleId, ids: [retail[0].id, 'RETAIL'] });
    assert.equal(p.infos[0], `${RACER.name} (${RACER.titleId}): 2 ConsoleLive IDs: 1 linked, 0 unlinked, 1 invalid, not sent (the result says why).`);
    p = script(api).typeIn('RETAIL');
    await vscode.commands.executeCommand('platformExplorer.lookUpConsoleLiveIds', { titleId: RACER.titleId, ids: [retail[0].id] });
    assert.equal(p.infos[0], `${RACER.name} (${RACER.titleId}): 1 ConsoleLive ID: 1 linked, 0 unlinked.`);
  });

  it('ConsoleLive IDs: the Sandbox typed is the one used', async () => {
    const p = script(api).typeIn('XDKS.1');
    const summary = await vscode.commands.executeCommand<Summary>('platformExplorer.lookUpConsoleLiveIds', { titleId: RACER.titleId, ids: [devOnly[0].id] });
    p.assertDone();
    const doc = JSON.parse(documentText(summary?.document)) as JsonResult;
    assert.deepEqual(doc.results, [{ ConsoleLiveAccountId: devOnly[0].id, PlatformId: devOnly[0].platformId, Status: 'linked' }]);

    const q = script(api).typeIn('bad sandbox!');
    await vscode.commands.executeCommand('platformExplorer.lookUpConsoleLiveIds', { titleId: RACER.titleId, ids: [devOnly[0].id] });
    assert.match(q.inputs[0].validation ?? '', /Sandbox/);
  });

  it('Storefront Names typed comma-separated; a bulk list is chunked by 25 and keeps its order', async () => {
    // 24 linked names (every demo one, once) and 36 unlinked ones, interleaved: 60 unique names, 3 requests.
    let k = 0;
    const linkedAt = (i: number): boolean => i % 5 < 2;
    const list = Array.from({ length: 60 }, (_, i) => (linkedAt(i) ? names[k++].name : `${DEMO_UNLINKED.storefrontNames[0]}_${i}`));
    const expected = new Map(names.map((n) => [n.name, n.platformId]));
    await emu(api, 'POST', 'stats/reset');
    const p = script(api).typeIn(list.join(', '));
    const summary = await vscode.commands.executeCommand<Summary>('platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId });
    p.assertDone();
    assert.equal(await requestCount(api, 'Server/GetPlatformIDsFromStorefrontNames'), 3);
    const doc = JSON.parse(documentText(summary?.document)) as JsonResult;
    assert.deepEqual(doc.results.map((r) => r.StorefrontName), list);
    assert.equal(doc.linked, 24);
    assert.equal(doc.unlinked, 36);
    assert.match(p.infos[0], /24 linked, 36 unlinked/);
    // Issue 30: the notification has no title (VS Code would put it first); its message starts with the number, short, once per change.
    assert.deepEqual(p.progressTitles, ['']);
    const said = p.progressMessages;
    assert.equal(said[0], `0 of 60 · Looking up Storefront Names in ${RACER.name}`);
    assert.equal(said.at(-1), `60 of 60 · Looking up Storefront Names in ${RACER.name}`);
    assert.ok(said.every((m, i) => /^\d+ of 60 · Looking up Storefront Names in /.test(m) && m !== said[i - 1]), said.join(' | '));
    doc.results.forEach((r, i) => {
      assert.equal(r.Status, linkedAt(i) ? 'linked' : 'unlinked');
      assert.equal(r.PlatformId, linkedAt(i) ? expected.get(list[i]) : null);
    });
  });

  it('a setting changed while a bulk lookup runs lets it finish: every result arrives, nothing vanishes', async () => {
    // 8 requests at 300 ms each: the setting changes while they are in flight.
    await emu(api, 'POST', 'faults', { latencyMs: 300 });
    const list = Array.from({ length: 200 }, (_, i) => `${DEMO_UNLINKED.storefrontNames[0]}_${i}`);
    const p = script(api).typeIn(list.join(', '));
    const running = vscode.commands.executeCommand<Summary>('platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId });
    while ((await emu<{ total: number }>(api, 'GET', 'stats')).total === 0) await new Promise((r) => setTimeout(r, 20));
    await vscode.workspace.getConfiguration('platformExplorer').update('lookupResultFormat', 'json', vscode.ConfigurationTarget.Global);
    try {
      const summary = await running;
      assert.deepEqual(p.errors, []);
      assert.ok(summary?.document, 'the lookup vanished: no result');
      assert.equal((JSON.parse(documentText(summary.document)) as JsonResult).results.length, 200);
    } finally {
      await vscode.workspace.getConfiguration('platformExplorer').update('lookupResultFormat', undefined, vscode.ConfigurationTarget.Global);
      await emu(api, 'POST', 'faults/clear');
    }
  });

  it('invalid identifiers are reported as invalid, apart, and never sent; counts are of distinct IDs', async () => {
    const bad = ['abc', '-1', '0x2533274800000000', '25332748000000000000', '# comment'];
    const ids = [retail[0].id, ...bad, retail[0].id];
    await emu(api, 'POST', 'stats/reset');
    script(api).typeIn('RETAIL');
    const summary = await vscode.commands.executeCommand<Summary>('platformExplorer.lookUpConsoleLiveIds', { titleId: RACER.titleId, ids });
    assert.deepEqual(summary && [summary.linked, summary.unlinked, summary.invalid, summary.duplicates], [1, 0, 5, 1]);
    const doc = JSON.parse(documentText(summary?.document)) as { results: { ConsoleLiveAccountId: string; Status: string; Reason?: string }[] };
    assert.deepEqual(doc.results.filter((r) => r.Status === 'invalid').map((r) => r.ConsoleLiveAccountId), bad);
    assert.ok(doc.results.filter((r) => r.Status === 'invalid').every((r) => (r.Reason ?? '').length > 0), 'each says why');
    assert.equal(await requestCount(api, 'Server/GetPlatformIDsFromConsoleLiveIDs'), 1, 'only the valid ID was sent');
    const names = await vscode.commands.executeCommand<Summary>('platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId, names: ['n'.repeat(120), 'racer_ana_0'] });
    assert.equal(names?.invalid, 1, 'a 120-character name is invalid, not unlinked');
  });

  it('a list pasted into the input box is never silently one entry: ConsoleLive IDs split on spaces, Storefront names ask', async () => {
    // The input box turns a pasted list's line breaks into spaces.
    let p = script(api).typeIn(`${retail[0].id} ${retail[1].id}`).typeIn('RETAIL');
    let summary = await vscode.commands.executeCommand<Summary>('platformExplorer.lookUpConsoleLiveIds', { titleId: RACER.titleId });
    p.assertDone();
    assert.equal(summary?.linked, 2);
    p = script(api).typeIn(`${names[0].name} ${names[1].name}`).choose('2 names, one per word');
    summary = await vscode.commands.executeCommand<Summary>('platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId });
    p.assertDone();
    assert.equal(summary?.linked, 2, 'looked up as two names');
    p = script(api).typeIn('Ana the Racer').choose('One name with spaces');
    summary = await vscode.commands.executeCommand<Summary>('platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId });
    p.assertDone();
    assert.equal(summary?.rows.length, 1, 'kept as one name when the user says so');
  });

  it('Storefront Names from the editor selection, one per line, with the CSV format', async () => {
    await vscode.workspace.getConfiguration('platformExplorer').update('lookupResultFormat', 'csv', vscode.ConfigurationTarget.Global);
    // A name a spreadsheet would run as a formula is neutralised in the CSV.
    const text = `${names[0].name}\n${DEMO_UNLINKED.storefrontNames[1]}\n${names[1].name}\n=1+1\n`;
    await openText(text, { selections: [new vscode.Selection(0, 0, 4, 0)] });
    const p = script(api);
    const summary = await vscode.commands.executeCommand<Summary>('platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId });
    p.assertDone();
    const csv = documentText(summary?.document);
    assert.equal(
      csv,
      [
        'StorefrontName,PlatformId,Status,Reason',
        `${names[0].name},${names[0].platformId},linked,`,
        `${DEMO_UNLINKED.storefrontNames[1]},,unlinked,`,
        `${names[1].name},${names[1].platformId},linked,`,
        "'=1+1,,unlinked,",
        '',
      ].join('\r\n'),
    );
  });

  it('an empty or malformed typed list is refused as you type', async () => {
    const p = script(api).typeIn(' , ,');
    await vscode.commands.executeCommand('platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId });
    assert.match(p.inputs[0].validation ?? '', /at least one/);
    assert.deepEqual(p.errors, []);
  });

  it('cancelling a bulk lookup stops it and keeps what was looked up: the rest is marked "not looked up"', async () => {
    // 300 distinct IDs (the first request holds the two linked ones), an invalid one and a duplicate.
    const ids = [retail[0].id, DEMO_UNLINKED.consoleLiveIds[0], retail[1].id, ...Array.from({ length: 297 }, (_, i) => String(2533274899000000 + i)), 'abc', retail[0].id];
    await vscode.workspace.getConfiguration('platformExplorer').update('lookupConcurrency', 1, vscode.ConfigurationTarget.Global);
    await emu(api, 'POST', 'faults', { latencyMs: 150, rules: [] });
    await emu(api, 'POST', 'stats/reset');
    const p = script(api).typeIn('RETAIL');
    // The first report is the 0-of-N start; the next comes at a tenth of the work (30 of 300), after
    // the second request's answer: cancel there.
    p.cancelProgressAfterReports = 2;
    let summary: (Summary & { cancelled: boolean; notLookedUp: number }) | undefined;
    try {
      summary = await vscode.commands.executeCommand('platformExplorer.lookUpConsoleLiveIds', { titleId: RACER.titleId, ids });
    } finally {
      await emu(api, 'POST', 'faults/clear');
      await vscode.workspace.getConfiguration('platformExplorer').update('lookupConcurrency', undefined, vscode.ConfigurationTarget.Global);
    }
    p.assertDone();
    assert.equal(await requestCount(api, 'Server/GetPlatformIDsFromConsoleLiveIDs'), 2, 'no request after Cancel');
    assert.deepEqual(summary && [summary.cancelled, summary.linked, summary.unlinked, summary.invalid, summary.notLookedUp, summary.duplicates], [true, 2, 48, 1, 250, 1]);
    const doc = JSON.parse(documentText(summary?.document)) as JsonResult & { cancelled: boolean; notLookedUp: number };
    assert.equal(doc.cancelled, true);
    assert.equal(doc.notLookedUp, 250);
    assert.equal(doc.results.length, 302, 'a row per entry');
    assert.deepEqual(doc.results.slice(0, 3), [
      { ConsoleLiveAccountId: retail[0].id, PlatformId: retail[0].platformId, Status: 'linked' },
      { ConsoleLiveAccountId: DEMO_UNLINKED.consoleLiveIds[0], PlatformId: null, Status: 'unlinked' },
      { ConsoleLiveAccountId: retail[1].id, PlatformId: retail[1].platformId, Status: 'linked' },
    ]);
    assert.ok(doc.results.slice(3, 50).every((r) => r.Status === 'unlinked'), 'the rest of the first two requests: looked up');
    assert.deepEqual(doc.results[50], { ConsoleLiveAccountId: '2533274899000047', PlatformId: null, Status: 'not looked up', Reason: 'cancelled' });
    assert.ok(doc.results.slice(50, 300).every((r) => r.Status === 'not looked up'), 'the others: not looked up');
    // The duplicate takes its first row's answer; invalid entries come last, as ever.
    assert.deepEqual(doc.results[300], { ConsoleLiveAccountId: retail[0].id, PlatformId: retail[0].platformId, Status: 'linked' });
    assert.equal(doc.results[301].Status, 'invalid');
    assert.equal(p.infos.length, 1);
    assert.match(p.infos[0], /cancelled after looking up 50 of 300 ConsoleLive IDs: 2 linked, 48 unlinked, 1 invalid, not sent .*250 are marked "not looked up"/);
    const recorded = api.activity.all().at(-1);
    assert.equal(recorded?.outcome, 'cancelled', 'Activity records the lookup as cancelled');
  });

  it('cancelled before any answer: every entry is "not looked up", in CSV too', async () => {
    await vscode.workspace.getConfiguration('platformExplorer').update('lookupResultFormat', 'csv', vscode.ConfigurationTarget.Global);
    const p = script(api);
    p.cancelProgressAfterReports = 1;
    const summary = await vscode.commands.executeCommand<Summary>('platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId, names: [names[0].name, names[1].name] });
    p.assertDone();
    assert.equal(documentText(summary?.document), [
      'StorefrontName,PlatformId,Status,Reason',
      `${names[0].name},,not looked up,cancelled`,
      `${names[1].name},,not looked up,cancelled`,
      '',
    ].join('\r\n'));
    assert.match(p.infos[0], /cancelled after looking up 0 of 2 Storefront Names/);
  });

  it('a service failure shows the message with what to do, opens nothing, and keeps the title', async () => {
    await emu(api, 'POST', 'faults', { rules: [{ operation: 'Server/GetPlatformIDsFromStorefrontNames', kind: '500', times: -1 }] });
    const p = script(api);
    let opened: vscode.TextDocument[] = [];
    try {
      opened = (await resultsOpenedDuring(() =>
        vscode.commands.executeCommand('platformExplorer.lookUpStorefrontNames', { titleId: RACER.titleId, names: [names[0].name] }),
      )).opened;
    } finally {
      await emu(api, 'POST', 'faults/clear');
    }
    assert.equal(p.errors.length, 1);
    assert.ok(p.errors[0].length > 20, 'the message should say what happened and what to do');
    assert.deepEqual(p.errorActions[0], ['Show Log']);
    assert.deepEqual(opened, [], 'a result document was opened');
    assert.ok(api.titles.get(RACER.titleId));
    assert.ok(api.logLines().some((l) => /GetPlatformIDsFromStorefrontNames .*status=500/.test(l)), 'one log line per request with its status');
  });
});
