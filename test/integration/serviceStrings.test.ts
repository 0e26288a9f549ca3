// Hostile identifiers from a service (a loopback server answering like one): bidi overrides and
// line breaks in TitleIds, a JobReceiptId and lookup PlatformIds reach no modal, tree item,
// stored receipt or result document raw.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { children, documentText, script, titleChild, useFreshExtension, useLoopbackService } from './support/harness';

const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;
const TITLE = 'C0DE5';
const PLAYER = '9437A5ADDAE3012D';
const HOSTILE_TITLE = 'F71AC\u202Egpj.exe';
const HOSTILE_RECEIPT = 'ok\u202E\nDeletion cancelled';

function answer(operation: string): unknown {
  if (operation === 'Admin/GetPlayedTitleList') return { TitleIds: [HOSTILE_TITLE, 'A248\u2066'] };
  if (operation === 'Admin/DeleteMasterPlayerAccount') return { JobReceiptId: HOSTILE_RECEIPT, TitleIds: [HOSTILE_TITLE] };
  if (operation === 'Server/GetPlatformIDsFromStorefrontNames') return { Data: [{ StorefrontName: 'ana', PlatformId: '9437A5ADDAE3012D\u202E' }] };
  return undefined;
}

describe('Hostile service identifiers', () => {
  const ctx = useFreshExtension({ emulator: false });
  useLoopbackService(ctx, { titleId: TITLE, name: 'Hostile service', key: 'HOSTILEKEY0123456789ABCDEFGHIJ' }, answer);

  it('the delete modal, the receipt kept, its tree node and the message show escapes, never raw bidi or line breaks', async () => {
    const p = script(ctx.api).press('Delete').typeIn(PLAYER);
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccount', { titleId: TITLE, platformId: PLAYER });
    assert.deepEqual(p.errors, []);
    assert.equal(p.confirms.length, 1);
    assert.ok(!UNSAFE.test(p.confirms[0].detail), `modal: ${JSON.stringify(p.confirms[0].detail)}`);
    assert.ok(p.confirms[0].detail.includes('\\u202e'), 'the override is shown as an escape');
    const [job] = ctx.api.jobs.all();
    assert.ok(job, 'the receipt was not kept');
    assert.ok(!UNSAFE.test(JSON.stringify(job.jobReceiptId) + job.titleIds.join('')), `stored: ${JSON.stringify(job)}`);
    assert.ok(!UNSAFE.test(p.infos.join('')), `message: ${JSON.stringify(p.infos)}`);
    const jobs = await titleChild(ctx.api, TITLE, 'Deletion Jobs');
    const [node] = await children(ctx.api, jobs.node);
    assert.ok(!UNSAFE.test(node.label + node.description), `tree: ${node.label} ${node.description}`);
  });

  it('a lookup result document shows a malformed PlatformId escaped', async () => {
    const p = script(ctx.api);
    const summary = await vscode.commands.executeCommand<{ document: vscode.Uri }>('platformExplorer.lookUpStorefrontNames', { titleId: TITLE, names: ['ana'] });
    assert.deepEqual(p.errors, []);
    const text = documentText(summary!.document);
    assert.ok(!UNSAFE.test(text.replace(/\n/g, '')), `document: ${JSON.stringify(text)}`);
    assert.ok(text.includes('\\\\u202e'), text);
  });
});
