// Commands in plain Node, through their declarations (parse, then handler, as registration runs
// them) over the vscode double: every argument shape, a cancel at each prompt, and the failures,
// with real stores and real HTTP to a local emulator where a command talks to the service.
import * as assert from 'node:assert/strict';
import type { EmulatorHandle } from '../../../src/emulator/server';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../../src/emulator/seed';
import { setSecretKeyCommand, replaceSecretKeyCommand } from '../../../src/extension/commands/setSecretKey';
import { deleteMobileStoreCommand } from '../../../src/extension/commands/deleteAddon';
import { lookUpAccountInfoCommand } from '../../../src/extension/commands/lookUpAccountInfo';
import { renameTitleCommand } from '../../../src/extension/commands/renameTitle';
import { CommandError, UserCancelled } from '../../../src/extension/errors';
import type { TitleRecord } from '../../../src/extension/titles';
import { TitleNode } from '../../../src/extension/tree/titleNodes';
import type { TreeNode } from '../../../src/extension/tree/nodes';
import { checkedEmulator } from '../helpers/contract';
import { harness } from './commandHarness';
import { double } from './vscodeDouble';

const KEY = 'K'.repeat(40);
const local = (titleId: string, name: string): TitleRecord => ({ titleId, name, endpointProfile: 'service' });
/** A title's node as the Titles view makes it (its children are never read here). */
const titleNode = (t: TitleRecord): TreeNode => new TitleNode(t, true, '', {} as ConstructorParameters<typeof TitleNode>[3]);

describe('Commands in plain Node (src/extension/commands through their declarations)', () => {
  beforeEach(() => double.reset());

  describe('Set / Replace Secret Key', () => {
    it('from a { titleId } argument: asks for the key only, stores it, says so', async () => {
      const h = await harness([local('AB12', 'One'), local('CD34', 'Two')]);
      const { prompts } = await h.run(setSecretKeyCommand, [{ titleId: 'CD34' }], [KEY]);
      assert.deepEqual(prompts.asked.map((a) => a.kind), ['input']);
      assert.equal(await h.secrets.get('CD34'), KEY);
      assert.equal(await h.secrets.get('AB12'), undefined);
      assert.match(prompts.infos[0], /Secret key saved for Two \(CD34\)/);
    });

    it('from the palette: the active title\'s key; Escape at the key stores nothing', async () => {
      const h = await harness([local('AB12', 'One'), local('CD34', 'Two')]);
      await assert.rejects(h.run(setSecretKeyCommand, [], [undefined]), UserCancelled);
      const { prompts } = await h.run(setSecretKeyCommand, [], [KEY]);
      assert.deepEqual(prompts.asked.map((a) => a.kind), ['input']);
      assert.equal(await h.secrets.get('AB12'), KEY);
    });

    it('from the palette when the title last picked was removed: pick, then key; Escape at either stores nothing', async () => {
      const h = await harness([local('AB12', 'One'), local('CD34', 'Two')]);
      await h.services.activeTitle.setPicked('FFFF');
      const first = h.run(setSecretKeyCommand, [], [undefined]);
      await assert.rejects(first, UserCancelled);
      await assert.rejects(h.run(setSecretKeyCommand, [], ['Two', undefined]), UserCancelled);
      assert.equal(await h.secrets.get('CD34'), undefined);
      // The pick is kept as the active title: the next run asks for the key only.
      assert.equal(h.services.activeTitle.lastPicked(), 'CD34');
      const { prompts } = await h.run(setSecretKeyCommand, [], [KEY]);
      assert.deepEqual(prompts.asked.map((a) => a.kind), ['input']);
      assert.equal(await h.secrets.get('CD34'), KEY);
    });

    it('from a title node (the view\'s menu): that title, "Replace" when a key is set', async () => {
      const h = await harness([local('AB12', 'One')], { AB12: KEY });
      const node = titleNode(h.titles.get('AB12')!);
      const { prompts } = await h.run(replaceSecretKeyCommand, [node], [`${KEY}X`]);
      assert.match(prompts.asked[0].question, /Replace the secret key of One \(AB12\)/);
      assert.equal(await h.secrets.get('AB12'), `${KEY}X`);
    });

    it('refuses what it cannot act on, before any question: an unconfigured or malformed titleId, JSON for Replace', async () => {
      const h = await harness([local('AB12', 'One')]);
      await assert.rejects(h.run(setSecretKeyCommand, [{ titleId: 'EEEE' }]), (e: CommandError) => /Title EEEE is not configured/.test(e.message));
      await assert.rejects(h.run(setSecretKeyCommand, [{ titleId: 'not hex\n' }]), CommandError);
      await assert.rejects(h.run(replaceSecretKeyCommand, [{ titleId: 'AB12' }]), (e: CommandError) => /acts on an item of the Platform view/.test(e.message));
      assert.equal(await h.secrets.get('AB12'), undefined);
    });

    it('with no title configured: an error that says how to add one', async () => {
      const h = await harness([]);
      await assert.rejects(h.run(setSecretKeyCommand, []), (e: CommandError) => /No title is configured yet/.test(e.message));
    });
  });

  describe('Rename Title', () => {
    it('F2 with nothing focused (null), or on a node that is no title: says what to do, renames nothing', async () => {
      const h = await harness([local('AB12', 'One')]);
      const { result, prompts } = await h.run(renameTitleCommand, [null]);
      assert.equal(result, undefined);
      assert.match(prompts.infos[0], /Only a title can be renamed/);
      assert.equal(h.titles.get('AB12')?.name, 'One');
    });

    it('the keybinding object VS Code did not resolve: the view\'s selection; Escape at the name keeps it', async () => {
      const h = await harness([local('AB12', 'One'), local('CD34', 'Two')]);
      h.selection = [titleNode(h.titles.get('CD34')!)];
      const keybinding = { $treeViewId: 'platformExplorer.titles', $focusedTreeItem: true };
      await assert.rejects(h.run(renameTitleCommand, [keybinding], [undefined]), UserCancelled);
      assert.equal(h.titles.get('CD34')?.name, 'Two');
      const { result } = await h.run(renameTitleCommand, [keybinding], ['  Renamed  ']);
      assert.equal(result, 'Renamed');
      assert.equal(h.titles.get('CD34')?.name, 'Renamed');
    });
  });

  describe('against the emulator (real HTTP on loopback)', () => {
    let emu: EmulatorHandle;
    const racer = DEMO_TITLES[0];
    before(async () => {
      emu = await checkedEmulator();
    });
    after(async () => {
      await emu.close();
    });
    const titles = (): TitleRecord[] => [{ titleId: racer.titleId, name: racer.name, endpointProfile: 'emulator', emulatorEndpoint: emu.endpoint }];

    it('Look Up Account Info: by a JSON argument asks nothing; from the palette asks the kind and the value; Escape at either stops', async () => {
      const h = await harness(titles(), { [racer.titleId]: racer.secretKey });
      const player = DEMO_PLAYERS[0];
      const byArg = await h.run(lookUpAccountInfoCommand, [{ titleId: racer.titleId, platformId: player.platformId }]);
      assert.equal(byArg.prompts.asked.length, 0);
      assert.deepEqual((byArg.result as { lookedUpBy: string }).lookedUpBy, 'PlatformId');
      const doc = JSON.parse(double.documents.at(-1)!.getText()) as { lookedUpBy: unknown; UserInfo: { PlatformId?: string } | null };
      assert.deepEqual(doc.lookedUpBy, { PlatformId: player.platformId });
      assert.equal(doc.UserInfo?.PlatformId, player.platformId);

      await assert.rejects(h.run(lookUpAccountInfoCommand, [], [undefined]), UserCancelled);
      await assert.rejects(h.run(lookUpAccountInfoCommand, [], ['PlatformId', undefined]), UserCancelled);
      const typed = await h.run(lookUpAccountInfoCommand, [], ['PlatformId', player.platformId.toLowerCase()]);
      assert.deepEqual(typed.prompts.asked.map((a) => a.kind), ['pick', 'input']);
      assert.deepEqual(typed.prompts.validation, [undefined]);
    });

    it('Look Up Account Info InView: the selected deletion job\'s player, asked nothing; nothing selected: asked', async () => {
      const h = await harness(titles(), { [racer.titleId]: racer.secretKey });
      const player = DEMO_PLAYERS[0];
      const job = { titleId: racer.titleId, job: { platformId: player.platformId } };
      const { DeletionJobNode } = await import('../../../src/extension/tree/jobNodes');
      Object.setPrototypeOf(job, DeletionJobNode.prototype);
      const inView = await h.run(lookUpAccountInfoCommand, [], [], { inView: true, viewSelection: [job as unknown as TreeNode] });
      assert.equal(inView.prompts.asked.length, 0);
      assert.deepEqual(JSON.parse(double.documents.at(-1)!.getText()).lookedUpBy, { PlatformId: player.platformId });
      await assert.rejects(h.run(lookUpAccountInfoCommand, [], [undefined], { inView: true, viewSelection: [] }), UserCancelled);
    });

    it('Look Up Account Info fails before any question without a key, and says an unknown account with the service\'s code', async () => {
      const noKey = await harness(titles());
      await assert.rejects(noKey.run(lookUpAccountInfoCommand, [{ titleId: racer.titleId, email: 'x@example.com' }]), (e: CommandError) => /No secret key is set for Demo Racer/.test(e.message));
      const h = await harness(titles(), { [racer.titleId]: racer.secretKey });
      await assert.rejects(h.run(lookUpAccountInfoCommand, [{ titleId: racer.titleId, email: 'nobody@nowhere.example' }]), (e: Error) => /AccountNotFound|not found/i.test(`${e.message} ${(e as { errorCode?: string }).errorCode ?? ''}`));
    });

    it('Delete MobileStore Add-on: Escape at the confirmation deletes nothing; confirmed: deleted, then already absent', async () => {
      const h = await harness(titles(), { [racer.titleId]: racer.secretKey });
      const target = { titleId: racer.titleId };
      await assert.rejects(h.run(deleteMobileStoreCommand, [target], [undefined]), UserCancelled);
      const first = await h.run(deleteMobileStoreCommand, [target], ['Delete']);
      assert.equal(first.result, 'deleted');
      assert.equal(h.addonStates.get(racer.titleId, 'MobileStore'), 'absent');
      const again = await h.run(deleteMobileStoreCommand, [target], ['Delete']);
      assert.equal(again.result, 'alreadyAbsent');
      assert.match(again.prompts.infos[0], /already absent/);
    });

    it('Delete MobileStore Add-on on a production title: Escape at the typed title ID deletes nothing', async () => {
      const arena = DEMO_TITLES[1];
      const h = await harness([{ titleId: arena.titleId, name: arena.name, endpointProfile: 'emulator', emulatorEndpoint: emu.endpoint, production: true }], { [arena.titleId]: arena.secretKey });
      await assert.rejects(h.run(deleteMobileStoreCommand, [{ titleId: arena.titleId }], ['Delete', undefined]), UserCancelled);
      const done = await h.run(deleteMobileStoreCommand, [{ titleId: arena.titleId }], ['Delete', arena.titleId]);
      assert.equal(done.result, 'deleted');
      assert.deepEqual(done.prompts.validation, [undefined]);
    });
  });
});
