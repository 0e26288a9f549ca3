// A compliance person's day (issue 30) in the real VS Code: New Data Request… from a ticket offers
// each identifier with the line it was found on and checks only the requester's own (the From line,
// what the person writes about themselves), never a colleague's e-mail in an agent's note; it says
// how many are checked before the search runs, and the creation message says a late request is overdue.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DataRequest } from '../../src/core/requests';
import { script, useFreshExtension, setDataRequestsFolder } from './support/harness';

describe('Compliance: New Data Request from a ticket', () => {
  const ctx = useFreshExtension({ emulator: true });
  let dir: string;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pe-compliance-'));
    await setDataRequestsFolder(dir);
  });
  afterEach(async () => {
    await setDataRequestsFolder(undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('each identifier shows its line; only the From line and the person\'s own sentences are checked; the count is said; a late request is said to be overdue', async () => {
    const ticket = [
      'Ticket PRIV-0412',
      'From: Ana K <ana@example.com>',
      '',
      'Hello, my Storefront name is ana_k. Please delete my accounts.',
      '',
      'Agent note: checked with bob@support.example, the colleague who handles the shop.',
    ].join('\n');
    const p = script(ctx.api)
      .chooseMany(['E-mail: ana@example.com', 'Storefront name: ana_k'])
      .chooseMany(['Erasure'])
      .typeIn('2026-01-05')
      .typeIn('PRIV-0412');
    const request = await vscode.commands.executeCommand<DataRequest>('platformExplorer.newDataRequest', { text: ticket });
    p.assertDone();
    const pick = p.picks[0];
    const items = pick.items.filter((i) => !i.label.startsWith('Add identifiers')).map((i) => ({ label: i.label, description: i.description, detail: i.detail, picked: i.picked }));
    assert.deepEqual(items, [
      { label: 'E-mail: ana@example.com', description: 'line 2 · the From line', detail: 'From: Ana K <ana@example.com>', picked: true },
      { label: 'Storefront name: ana_k', description: 'line 4 · the person writes it is theirs', detail: 'Hello, my Storefront name is ana_k. Please delete my accounts.', picked: true },
      { label: 'E-mail: bob@support.example', description: 'line 6', detail: 'Agent note: checked with bob@support.example, the colleague who handles the shop.', picked: false },
    ]);
    assert.equal(pick.options.placeHolder, '2 of 3 checked (on the From line or where the person writes about themselves); check only the person\'s own.');
    assert.equal(pick.options.ignoreFocusOut, true, 'the question stays open when the user clicks elsewhere');
    assert.deepEqual(request.identifiers.map((x) => x.value), ['ana@example.com', 'ana_k']);
    const titles = ctx.api.titles.all().length;
    assert.match(p.infos.at(-1) ?? '', new RegExp(`^Data request PRIV-0412 created for 2 identifiers, due 2026-02-04: already overdue by \\d+ days\\. Run it to find the person's accounts in ${titles} titles;`));
  });

  it('a ticket that says nothing of whose they are: none checked, and the question says so', async () => {
    const p = script(ctx.api).chooseMany(['PlatformId: 0123456789ABCDEF']).chooseMany(['Access']).typeIn(new Date().toISOString().slice(0, 10)).typeIn('T-1');
    await vscode.commands.executeCommand<DataRequest>('platformExplorer.newDataRequest', { text: 'Forwarded by the shop: account 0123456789ABCDEF\nand x@example.com' });
    p.assertDone();
    assert.ok(p.picks[0].items.every((i) => i.picked !== true), 'nothing is checked');
    assert.match(p.picks[0].options.placeHolder ?? '', /^2 found, none checked: the ticket does not say which are the person's\./);
    assert.match(p.infos.at(-1) ?? '', /created for 1 identifier, due \d{4}-\d\d-\d\d\. Run it/);
  });
});
