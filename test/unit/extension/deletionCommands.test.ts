// The deletion commands' typed arguments (issue 31), through their declarations over the vscode
// double: each shape they are invoked with, what is refused at parse, and a cancel at the first prompt.
import * as assert from 'node:assert/strict';
import { copyJobReceiptIdCommand } from '../../../src/extension/commands/copyJobReceiptId';
import { deleteMasterPlayerAccountsFromListCommand, parseListArgs } from '../../../src/extension/commands/deleteFromList';
import { deleteMasterPlayerAccountCommand } from '../../../src/extension/commands/deleteMasterPlayerAccount';
import { exportDeletionJobsCommand } from '../../../src/extension/commands/exportDeletionJobs';
import { verifyDeletionsCommand } from '../../../src/extension/commands/verifyDeletions';
import { parsePlayerArgs } from '../../../src/extension/commands/platformIdArg';
import { CommandError, UserCancelled } from '../../../src/extension/errors';
import type { TitleRecord } from '../../../src/extension/titles';
import type { TreeNode } from '../../../src/extension/tree/nodes';
import { TitleNode } from '../../../src/extension/tree/titleNodes';
import { harness } from './commandHarness';
import { double, Uri } from './vscodeDouble';

const KEY = 'K'.repeat(40);
const PLAYER = '9437A5ADDAE3012D';
// Nothing is sent before the prompts these tests dismiss: an emulator endpoint on loopback that nothing serves.
const local = (titleId: string, name: string): TitleRecord => ({ titleId, name, endpointProfile: 'emulator', emulatorEndpoint: 'http://127.0.0.1:9/{titleId}' });
const titleNode = (t: TitleRecord): TreeNode => new TitleNode(t, true, '', {} as ConstructorParameters<typeof TitleNode>[3]);
const NOT_IN_VIEW = { inView: false, viewSelection: [] };

describe('Deletion commands: typed arguments (parse, then handler, over the vscode double)', () => {
  beforeEach(() => double.reset());

  it('Delete Master Player Account: { platformId } validated and upper-cased at parse; a node never reads the editor; InView the selected job\'s player', async () => {
    assert.equal(parsePlayerArgs([{ titleId: 'AB12', platformId: PLAYER.toLowerCase() }], NOT_IN_VIEW).platformId, PLAYER);
    assert.throws(() => parsePlayerArgs([{ platformId: 'not-an-id' }], NOT_IN_VIEW), (e: CommandError) => /PlatformId "not-an-id" is not valid/.test(e.message));
    const node = titleNode(local('AB12', 'One'));
    assert.deepEqual([parsePlayerArgs([node], NOT_IN_VIEW).readEditor, parsePlayerArgs([], NOT_IN_VIEW).readEditor], [false, true]);
    const { DeletionJobNode } = await import('../../../src/extension/tree/jobNodes');
    const job = Object.setPrototypeOf({ titleId: 'AB12', job: { platformId: PLAYER } }, DeletionJobNode.prototype) as TreeNode;
    const inView = parsePlayerArgs([], { inView: true, viewSelection: [job] });
    assert.deepEqual([inView.target.titleId, inView.platformId, inView.readEditor], ['AB12', PLAYER, false]);
  });

  it('Delete Master Player Account from the palette or a node: asks the PlatformId first; Escape there sends nothing', async () => {
    const h = await harness([local('AB12', 'One')], { AB12: KEY });
    const palette = await h.run(deleteMasterPlayerAccountCommand, [], [undefined]).catch((e: unknown) => e);
    assert.ok(palette instanceof UserCancelled, String(palette));
    await assert.rejects(h.run(deleteMasterPlayerAccountCommand, [titleNode(h.titles.get('AB12')!)], [undefined]), UserCancelled);
    assert.deepEqual(h.services.jobs.all(), []);
  });

  it('Delete from List: { text } is the list; a Uri with the explorer\'s selection; a node; Escape at the file picker (no editor) stops', async () => {
    const file = Uri.file('/tmp/list.txt');
    assert.deepEqual(parseListArgs([{ titleId: 'AB12', text: PLAYER, metaData: 'T-1' }]), { titleId: 'AB12', kind: undefined, sandbox: undefined, metaData: 'T-1', origin: { text: PLAYER, uri: undefined, explorer: undefined, fromNode: false } });
    assert.deepEqual(parseListArgs([file, [file]]).origin.explorer, [file]);
    assert.equal(parseListArgs([file]).origin.explorer, undefined);
    assert.equal(parseListArgs([titleNode(local('AB12', 'One'))]).origin.fromNode, true);
    const h = await harness([local('AB12', 'One')], { AB12: KEY });
    await assert.rejects(h.run(deleteMasterPlayerAccountsFromListCommand, [], [undefined]), UserCancelled);
    const twoFiles = await h.run(deleteMasterPlayerAccountsFromListCommand, [file, [file, Uri.file('/tmp/b.txt')]]).catch((e: unknown) => e);
    assert.match((twoFiles as CommandError).message, /Select one list file at a time/);
  });

  it('Export Deletion Jobs: a format other than json or csv refused at parse; nothing recorded says so, asks nothing', async () => {
    const h = await harness([local('AB12', 'One')]);
    await assert.rejects(h.run(exportDeletionJobsCommand, [{ format: 'xml' }]), (e: CommandError) => /"format" argument must be json or csv/.test(e.message));
    const { result, prompts } = await h.run(exportDeletionJobsCommand, [{ titleId: 'AB12', format: 'csv' }]);
    assert.equal(result, undefined);
    assert.match(prompts.infos[0], /No deletion jobs are recorded for title AB12/);
  });

  it('Verify Deletions: { titleId } or nothing with no queued deletion says so; Copy JobReceiptId refuses JSON, and with none recorded says so', async () => {
    const h = await harness([local('AB12', 'One')]);
    const { prompts } = await h.run(verifyDeletionsCommand, []);
    assert.match(prompts.infos[0], /No queued deletions to verify/);
    await assert.rejects(h.run(copyJobReceiptIdCommand, [{ jobReceiptId: 'anything' }]), (e: CommandError) => /acts on an item of the Platform view/.test(e.message));
    await assert.rejects(h.run(copyJobReceiptIdCommand, []), (e: CommandError) => /No deletion jobs with a JobReceiptId/.test(e.message));
  });
});
