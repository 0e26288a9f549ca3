// Answers the service's published description allows but the emulator never gives, from a loopback
// server answering like the service: a deletion without JobReceiptId, a login with unknown members
// and missing optional ones. Each must work in the real extension, never read as "malformed".
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { children, documentText, script, titleChild, useFreshExtension, useLoopbackService } from './support/harness';

const TITLE = 'C0DE6';
const PLAYER = '9437A5ADDAE3012D';
const JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';

const ANSWERS: Record<string, unknown> = {
  'Admin/GetPlayedTitleList': { TitleIds: [TITLE] },
  // Queued, but with neither JobReceiptId nor TitleIds: both optional in the published description.
  'Admin/DeleteMasterPlayerAccount': {},
  'Server/LoginWithLauncher': {
    NewlyCreated: false,
    PlatformId: PLAYER,
    FutureMember: 'kept and shown',
    TreatmentAssignment: { Variables: [{ Name: 'no-value' }] },
    EntityToken: { EntityToken: 'player-token-without-expiry-0123456789' },
    InfoResultPayload: { UserDataVersion: 1, UserReadOnlyDataVersion: 0, UserInventory: [{ UnitPrice: 100, DisplayName: 'Sword' }] },
  },
};

describe('Answers the published contract allows (a loopback service)', () => {
  const ctx = useFreshExtension({ emulator: false });
  const { seen } = useLoopbackService(ctx, { titleId: TITLE, name: 'Contract service', key: 'CONTRACTKEY0123456789ABCDEFGHIJ' }, (op) => ANSWERS[op]);

  it('a deletion answered without JobReceiptId is reported queued and recorded under Deletion Jobs, with no receipt to copy', async () => {
    const p = script(ctx.api).press('Delete').typeIn(PLAYER);
    await vscode.commands.executeCommand('platformExplorer.deleteMasterPlayerAccount', { titleId: TITLE, platformId: PLAYER });
    assert.deepEqual(p.errors, [], 'no error: the deletion was queued');
    assert.equal(seen.filter((op) => op === 'Admin/DeleteMasterPlayerAccount').length, 1, 'sent once');
    assert.ok(p.infos.some((m) => /queued; the service returned no receipt/.test(m)), `message: ${JSON.stringify(p.infos)}`);
    const [job] = ctx.api.jobs.all();
    assert.equal(job?.platformId, PLAYER);
    assert.equal(job?.jobReceiptId, undefined);
    assert.deepEqual(job?.titleIds, [TITLE], 'the titles it wipes, from GetPlayedTitleList');
    const jobs = await titleChild(ctx.api, TITLE, 'Deletion Jobs');
    const [node] = await children(ctx.api, jobs.node);
    assert.ok(!/hasReceipt/.test(node.contextValue ?? ''), 'no Copy JobReceiptId action on it');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('platformExplorer.exportDeletionJobs', { titleId: TITLE, format: 'json' });
    const exported = await documentText(uri);
    assert.ok(exported.includes(PLAYER));
    assert.equal((JSON.parse(exported) as { deletions: { jobReceiptId: unknown }[] }).deletions[0].jobReceiptId, null, "no string where the receipt belongs");
  });

  it('a login answer with unknown members, a variable without Value and a token without expiry is shown, not refused', async () => {
    const p = script(ctx.api).choose('Paste an IdentityToken').typeIn(JWT).choose('Sign in only').chooseMany(['GetUserInventory']).typeIn('');
    const result = await vscode.commands.executeCommand<Record<string, unknown>>('platformExplorer.testLauncherLogin', { titleId: TITLE });
    assert.deepEqual(p.errors, []);
    assert.equal(result?.FutureMember, 'kept and shown', 'unknown members pass through');
    assert.equal(result?.PlatformId, PLAYER);
    assert.match(String((result?.EntityToken as { EntityToken?: string } | undefined)?.EntityToken), /^•/, 'the token comes back masked');
  });
});
