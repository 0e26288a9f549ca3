// The lookups' typed arguments (issue 31), through their declarations over the vscode double and
// real HTTP to a local emulator: each shape they are invoked with, and a cancel at the first prompt.
import * as assert from 'node:assert/strict';
import type { EmulatorHandle } from '../../../src/emulator/server';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../../src/emulator/seed';
import { findPlatformIdsCommand } from '../../../src/extension/commands/findPlatformIds';
import { lookUpConsoleLiveIdsCommand } from '../../../src/extension/commands/lookUpConsoleLiveIds';
import { lookUpStorefrontNamesCommand } from '../../../src/extension/commands/lookUpStorefrontNames';
import { showPlayedTitlesCommand } from '../../../src/extension/commands/showPlayedTitles';
import { CommandError, UserCancelled } from '../../../src/extension/errors';
import type { TitleRecord } from '../../../src/extension/titles';
import type { TreeNode } from '../../../src/extension/tree/nodes';
import { TitleNode } from '../../../src/extension/tree/titleNodes';
import { checkedEmulator } from '../helpers/contract';
import { harness } from './commandHarness';
import { double } from './vscodeDouble';

const titleNode = (t: TitleRecord): TreeNode => new TitleNode(t, true, '', {} as ConstructorParameters<typeof TitleNode>[3]);

describe('Lookups: typed arguments (parse, then handler, over the vscode double)', () => {
  let emu: EmulatorHandle;
  const racer = DEMO_TITLES[0];
  const ana = DEMO_PLAYERS[0];
  before(async () => {
    emu = await checkedEmulator();
  });
  after(async () => {
    await emu.close();
  });
  beforeEach(() => double.reset());
  const titles = (): TitleRecord[] => [{ titleId: racer.titleId, name: racer.name, endpointProfile: 'emulator', emulatorEndpoint: emu.endpoint }];
  const ready = () => harness(titles(), { [racer.titleId]: racer.secretKey });

  it('Storefront names: { titleId, names } asks nothing; a node or the palette asks the names, Escape stops; names not a list: refused before any question', async () => {
    const h = await ready();
    const byArg = await h.run(lookUpStorefrontNamesCommand, [{ titleId: racer.titleId, names: [ana.storefrontNames[0], 'nobody_here'] }]);
    assert.equal(byArg.prompts.asked.length, 0);
    assert.deepEqual([(byArg.result as { linked: number }).linked, (byArg.result as { unlinked: number }).unlinked], [1, 1]);
    await assert.rejects(h.run(lookUpStorefrontNamesCommand, [titleNode(h.titles.get(racer.titleId)!)], [undefined]), UserCancelled);
    await assert.rejects(h.run(lookUpStorefrontNamesCommand, [], [undefined]), UserCancelled);
    const typed = await h.run(lookUpStorefrontNamesCommand, [], [ana.storefrontNames[0]]);
    assert.deepEqual(typed.prompts.asked.map((a) => a.kind), ['input']);
    assert.equal((typed.result as { linked: number }).linked, 1);
    await assert.rejects(h.run(lookUpStorefrontNamesCommand, [{ titleId: racer.titleId, names: 'racer_ana_0' }]), (e: CommandError) => /"names" argument must be a list/.test(e.message));
  });

  it('ConsoleLive IDs: { ids, sandbox } asks only the Sandbox (Escape there stops); the palette asks the IDs first', async () => {
    const h = await ready();
    const live = ana.consoleLive.find((x) => x.sandbox === 'RETAIL')!;
    await assert.rejects(h.run(lookUpConsoleLiveIdsCommand, [{ titleId: racer.titleId, ids: [live.id], sandbox: 'RETAIL' }], [undefined]), UserCancelled);
    const byArg = await h.run(lookUpConsoleLiveIdsCommand, [{ titleId: racer.titleId, ids: [live.id] }], ['RETAIL']);
    assert.deepEqual(byArg.prompts.asked.map((a) => a.kind), ['input']);
    assert.equal((byArg.result as { linked: number }).linked, 1);
    const palette = h.run(lookUpConsoleLiveIdsCommand, [], [undefined]);
    await assert.rejects(palette, UserCancelled);
  });

  it('Show Played Titles: { platformId } and { platformIds: [one] } give the list; several give the summary; a node asks; InView reads the selected job', async () => {
    const h = await ready();
    const one = await h.run(showPlayedTitlesCommand, [{ titleId: racer.titleId, platformId: ana.platformId.toLowerCase() }]);
    assert.equal(one.prompts.asked.length, 0);
    assert.ok(Array.isArray(one.result) && (one.result as string[]).includes(racer.titleId));
    const listOfOne = await h.run(showPlayedTitlesCommand, [{ titleId: racer.titleId, platformIds: [ana.platformId] }]);
    assert.deepEqual(listOfOne.result, one.result);
    const many = await h.run(showPlayedTitlesCommand, [{ titleId: racer.titleId, platformIds: [ana.platformId, DEMO_PLAYERS[1].platformId, '=1+1'] }]);
    assert.deepEqual([(many.result as { found: number }).found, (many.result as { invalid: number }).invalid], [2, 1]);
    await assert.rejects(h.run(showPlayedTitlesCommand, [titleNode(h.titles.get(racer.titleId)!)], [undefined]), UserCancelled);
    await assert.rejects(h.run(showPlayedTitlesCommand, [], [undefined]), UserCancelled);
    await assert.rejects(h.run(showPlayedTitlesCommand, [{ titleId: racer.titleId, platformId: 'not-an-id' }]), CommandError);
    const { DeletionJobNode } = await import('../../../src/extension/tree/jobNodes');
    const job = Object.setPrototypeOf({ titleId: racer.titleId, job: { platformId: ana.platformId } }, DeletionJobNode.prototype) as TreeNode;
    const inView = await h.run(showPlayedTitlesCommand, [], [], { inView: true, viewSelection: [job] });
    assert.equal(inView.prompts.asked.length, 0);
    assert.deepEqual(inView.result, one.result);
  });

  it('Find PlatformIds: takes no arguments; with no editor open says to open a file', async () => {
    const h = await ready();
    await assert.rejects(h.run(findPlatformIdsCommand, [{ titleId: racer.titleId }]), (e: CommandError) => /No file is open/.test(e.message));
  });
});
