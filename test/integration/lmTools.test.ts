// Language model tools, invoked through vscode.lm.invokeTool in the real extension host as
// chat in agent mode would: lookups, played titles, the HandheldStore summary (no secret) and
// deletion jobs; none of them deletes anything.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import { requestCount, script, useFreshExtension } from './support/harness';

const [RACER, ARENA] = DEMO_TITLES;
const PLAYER = DEMO_PLAYERS.find((p) => p.playedTitles.length === 2 && p.storefrontNames.length > 0 && !p.banned)!;

async function invoke(name: string, input: object): Promise<Record<string, unknown>> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
  return JSON.parse(text) as Record<string, unknown>;
}

describe('Language model tools', () => {
  const ctx = useFreshExtension({ emulator: true });

  it('are contributed and registered: four read-only tools, none that deletes', () => {
    const ours = vscode.lm.tools.filter((t) => t.name.startsWith('platformExplorer_')).map((t) => t.name).sort();
    assert.deepEqual(ours, ['platformExplorer_getDeletionJobs', 'platformExplorer_getHandheldStoreSummary', 'platformExplorer_getPlayedTitles', 'platformExplorer_lookUpPlatformIds']);
    assert.ok(ours.every((n) => !/delete/i.test(n)));
  });

  it('look up PlatformIds, show played titles, summarise HandheldStore without secrets, and report deletion jobs', async () => {
    const lookup = await invoke('platformExplorer_lookUpPlatformIds', { titleId: RACER.titleId, kind: 'storefrontNames', identifiers: [PLAYER.storefrontNames[0], 'nobody_here'] });
    assert.deepEqual(lookup.results, [
      { StorefrontName: PLAYER.storefrontNames[0], PlatformId: PLAYER.platformId },
      { StorefrontName: 'nobody_here', PlatformId: null },
    ]);

    const played = await invoke('platformExplorer_getPlayedTitles', { titleId: RACER.titleId, platformId: PLAYER.platformId.toLowerCase() });
    assert.deepEqual([...(played.playedTitleIds as string[])].sort(), [...PLAYER.playedTitles].sort());

    const hs = await invoke('platformExplorer_getHandheldStoreSummary', { titleId: RACER.titleId });
    assert.equal(hs.Created, true);
    assert.ok(Array.isArray(hs.Environments) && hs.Environments.length > 0);
    const text = JSON.stringify(hs);
    assert.doesNotMatch(text, /secret/i);
    assert.ok(!text.includes(RACER.secretKey));

    // A title that is not configured, and a bad PlatformId: an error the model can read.
    const bad = await invoke('platformExplorer_getPlayedTitles', { titleId: 'BEEF', platformId: 'xyz' });
    assert.match(String(bad.error), /BEEF is not configured. Pass titleId, one of: .*F71AC/);

    let jobs = await invoke('platformExplorer_getDeletionJobs', {});
    assert.deepEqual(jobs.deletionJobs, []);
    script(ctx.api).press('Delete').typeIn(PLAYER.platformId);
    const receipt = await vscode.commands.executeCommand<{ JobReceiptId: string }>('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    jobs = await invoke('platformExplorer_getDeletionJobs', { titleId: RACER.titleId });
    assert.deepEqual((jobs.deletionJobs as Record<string, unknown>[]).map((j) => [j.JobReceiptId, j.PlatformId, j.TitleId, j.State]), [[receipt?.JobReceiptId, PLAYER.platformId, RACER.titleId, 'queued']]);
    assert.deepEqual((await invoke('platformExplorer_getDeletionJobs', { titleId: ARENA.titleId })).deletionJobs, []);

    // Only the one deletion the command made; the tools' calls are in Activity.
    assert.equal(await requestCount(ctx.api, 'Admin/DeleteMasterPlayerAccount'), 1);
    assert.equal(await requestCount(ctx.api, 'Addon/DeleteMobileStore') + await requestCount(ctx.api, 'Addon/DeleteConsoleNetB'), 0);
    const ops = ctx.api.activity.all().map((e) => e.operation);
    assert.ok(ops.includes('GetPlatformIDsFromStorefrontNames'), ops.join('; '));
  });

  it('uses the active title when none is named', async () => {
    script(ctx.api).choose(ARENA.name);
    await vscode.commands.executeCommand('platformExplorer.pickTitle');
    const lookup = await invoke('platformExplorer_lookUpPlatformIds', { kind: 'storefrontNames', identifiers: ['nobody_here'] });
    assert.equal(lookup.titleId, ARENA.titleId);
  });
});
