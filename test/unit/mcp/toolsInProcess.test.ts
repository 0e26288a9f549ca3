// The agent tools' handlers run in this process (the MCP suites run them in a child process, where
// mutation testing cannot see them): each tool called through runTool, as the server calls it,
// with real PlatformClients of two titles against the emulator on 127.0.0.1; every input check
// answered with its error and fix; the add-on summary's shape kept whatever the service returns.
import * as assert from 'node:assert/strict';
import { PlatformClient } from '../../../src/core/api/client';
import type { LedgerEntry } from '../../../src/core/deletion/types';
import { MAX_TOOL_IDENTIFIERS, runTool, titleOf, TOOLS, type ToolClient, type ToolContext } from '../../../src/core/tools';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../../src/emulator/seed';
import type { EmulatorHandle } from '../../../src/emulator/server';
import { checkedEmulator } from '../helpers/contract';
import { emulatorControl } from '../helpers/controls';

const [RACER, ARENA] = DEMO_TITLES;
const PLAYER = DEMO_PLAYERS.find((p) => p.playedTitles.length === 2 && p.storefrontNames.length > 0 && p.consoleLive.some((c) => c.sandbox === 'RETAIL') && !p.banned)!;
const LIVE = PLAYER.consoleLive.find((c) => c.sandbox === 'RETAIL')!.id;
const tool = (name: string): (typeof TOOLS)[number] => TOOLS.find((t) => t.name === name)!;

// Tests read fields freely from tool results.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('agent tools in process: each handler against the emulator', function () {
  this.timeout(30_000);
  let emu: EmulatorHandle;
  const clients = new Map<string, PlatformClient>();
  let jobs: LedgerEntry[] = [];
  const ctx = (titles = [RACER.titleId, ARENA.titleId], withJobs = true): ToolContext => ({
    titles: titles.map((titleId) => ({ titleId })),
    client: (titleId) => Promise.resolve(clients.get(titleId)!),
    endpointOf: (titleId) => (clients.has(titleId) ? emu.endpoint : undefined),
    signal: new AbortController().signal,
    ...(withJobs ? { jobs: (titleId?: string) => Promise.resolve(jobs.filter((j) => titleId === undefined || j.titleId === titleId)) } : {}),
  });
  const call = async (name: string, input: unknown, c = ctx()): Promise<{ isError: boolean; json: Json }> => {
    const out = await runTool(tool(name), input, c, DEMO_TITLES.map((t) => t.secretKey));
    return { isError: out.isError, json: out.result as Json };
  };

  before(async () => {
    emu = await checkedEmulator({ seed: 'demo', deletionDelayMs: 600_000 });
    for (const t of [RACER, ARENA]) clients.set(t.titleId, new PlatformClient({ titleId: t.titleId, endpoint: emu.endpoint, getSecretKey: () => Promise.resolve(t.secretKey), maxRetries: 0 }));
  });
  after(async () => {
    await Promise.all([...clients.values()].map((c) => c.close()));
    await emu?.close();
  });

  it('look_up_platform_ids: Storefront names and ConsoleLive IDs (sandbox RETAIL unless given), duplicates and blanks dropped', async () => {
    const names = await call('look_up_platform_ids', { titleId: ` ${RACER.titleId.toLowerCase()} `, kind: 'storefrontNames', identifiers: [PLAYER.storefrontNames[0], ` ${PLAYER.storefrontNames[0]} `, '  ', 'nobody_here'] });
    assert.equal(names.isError, false, JSON.stringify(names.json));
    assert.deepEqual(names.json.serviceData, {
      titleId: RACER.titleId,
      results: [{ StorefrontName: PLAYER.storefrontNames[0], PlatformId: PLAYER.platformId }, { StorefrontName: 'nobody_here', PlatformId: null }],
    });
    const live = await call('look_up_platform_ids', { titleId: RACER.titleId, kind: 'consoleLiveIds', identifiers: [LIVE], sandbox: '' });
    assert.deepEqual(live.json.serviceData, { titleId: RACER.titleId, sandbox: 'RETAIL', results: [{ ConsoleLiveAccountId: LIVE, PlatformId: PLAYER.platformId }] });
    const elsewhere = await call('look_up_platform_ids', { titleId: RACER.titleId, kind: 'consoleLiveIds', identifiers: [LIVE], sandbox: 'CERT.1-a_b' });
    assert.equal(elsewhere.json.serviceData.sandbox, 'CERT.1-a_b');
    assert.equal(elsewhere.json.serviceData.results[0].PlatformId, null, 'the RETAIL ID is not linked in another sandbox');
  });

  it('look_up_platform_ids: every bad input is a tool error naming the fix, before any request', async () => {
    await emulatorControl(emu.origin, 'stats/reset', {});
    const cases: [unknown, RegExp, RegExp][] = [
      [{ kind: 'names', identifiers: ['a'], titleId: RACER.titleId }, /^kind must be "storefrontNames" or "consoleLiveIds"\.$/, /^Pass kind: "storefrontNames" or "consoleLiveIds"\.$/],
      [{ kind: 'storefrontNames', identifiers: 'a', titleId: RACER.titleId }, /^identifiers must be a list of strings\.$/, /^Pass identifiers as \["name1", "name2"\], each at most 256 characters\.$/],
      [{ kind: 'storefrontNames', identifiers: ['a', 7], titleId: RACER.titleId }, /^identifiers must be a list of strings\.$/, /each at most 256/],
      [{ kind: 'storefrontNames', identifiers: ['x'.repeat(257)], titleId: RACER.titleId }, /^identifiers must be a list of strings\.$/, /each at most 256/],
      [{ kind: 'storefrontNames', identifiers: [' ', ''], titleId: RACER.titleId }, /^identifiers holds 0 distinct entries\.$/, new RegExp(`^Pass 1 to ${MAX_TOOL_IDENTIFIERS} identifiers per call; split a longer list\\.$`)],
      [{ kind: 'storefrontNames', identifiers: Array.from({ length: MAX_TOOL_IDENTIFIERS + 1 }, (_, i) => `n${i}`), titleId: RACER.titleId }, /^identifiers holds 501 distinct entries\.$/, /split a longer list/],
      [{ kind: 'consoleLiveIds', identifiers: ['a'], sandbox: 'a b', titleId: RACER.titleId }, /^sandbox is not a sandbox name\.$/, /^Leave sandbox out for RETAIL, or pass letters, digits, dots, dashes \(up to 64\)\.$/],
      [{ kind: 'consoleLiveIds', identifiers: ['a'], sandbox: 'x'.repeat(65), titleId: RACER.titleId }, /^sandbox is not a sandbox name\.$/, /RETAIL/],
      [{ kind: 'consoleLiveIds', identifiers: ['a'], sandbox: 5, titleId: RACER.titleId }, /^sandbox is not a sandbox name\.$/, /RETAIL/],
    ];
    for (const [input, error, fix] of cases) {
      const r = await call('look_up_platform_ids', input);
      assert.equal(r.isError, true, JSON.stringify(input));
      assert.match(r.json.error, error, JSON.stringify(input));
      assert.match(r.json.fix, fix, JSON.stringify(input));
    }
    // The most identifiers allowed is allowed.
    const most = await call('look_up_platform_ids', { kind: 'storefrontNames', identifiers: Array.from({ length: MAX_TOOL_IDENTIFIERS }, (_, i) => `n${i}`), titleId: RACER.titleId });
    assert.equal(most.isError, false, JSON.stringify(most.json).slice(0, 300));
    assert.equal(most.json.serviceData.results.length, MAX_TOOL_IDENTIFIERS);
    const stats = await emulatorControl(emu.origin, 'stats');
    assert.deepEqual(Object.keys(stats.requests), ['Server/GetPlatformIDsFromStorefrontNames'], 'only the good call reached the service');
  });

  it('which title: the only one when left out; named (any case, spaces trimmed); refused when unknown, malformed or ambiguous', async () => {
    const one = ctx([ARENA.titleId]);
    assert.equal(titleOf({}, one), ARENA.titleId);
    assert.equal(titleOf({ titleId: '' }, one), ARENA.titleId);
    assert.equal(titleOf({ titleId: ` ${ARENA.titleId.toLowerCase()} ` }, ctx()), ARENA.titleId);
    const refusal = (input: Record<string, unknown>, c: ToolContext): { message: string; fix: string } => {
      try {
        titleOf(input, c);
      } catch (e) {
        return { message: (e as Error).message, fix: (e as { fix: string }).fix };
      }
      return assert.fail('accepted');
    };
    assert.deepEqual(refusal({}, ctx()), { message: 'titleId is required: this server reads more than one title.', fix: `Pass titleId, one of: ${RACER.titleId}, ${ARENA.titleId}.` });
    assert.deepEqual(refusal({ titleId: 'BEEF' }, one), {
      message: 'Title BEEF is not one this server may read (no key was given for it).',
      fix: `Pass titleId, one of: ${ARENA.titleId}; in VS Code, add BEEF to the setting platformExplorer.agentTitles.`,
    });
    assert.match(refusal({ titleId: 'not hex' }, one).message, /^titleId: /);
    assert.equal(refusal({ titleId: 'not hex' }, one).fix, `Pass titleId, one of: ${ARENA.titleId}.`);
    assert.match(refusal({ titleId: 12 }, one).message, /^titleId: /);
    assert.equal(refusal({ titleId: 'BEEF' }, ctx([])).fix, 'Pass titleId, one of: none; in VS Code, add BEEF to the setting platformExplorer.agentTitles.');
  });

  it('get_played_titles: the player\'s titles (PlatformId trimmed and upper-cased); a bad PlatformId names the form', async () => {
    const r = await call('get_played_titles', { titleId: RACER.titleId, platformId: ` ${PLAYER.platformId.toLowerCase()} ` });
    assert.equal(r.isError, false, JSON.stringify(r.json));
    assert.deepEqual(Object.keys(r.json.serviceData), ['titleId', 'platformId', 'playedTitleIds']);
    assert.equal(r.json.serviceData.platformId, PLAYER.platformId);
    assert.deepEqual([...r.json.serviceData.playedTitleIds].sort(), [...PLAYER.playedTitles].sort());
    for (const platformId of ['xyz', 42, undefined]) {
      const bad = await call('get_played_titles', { titleId: RACER.titleId, platformId });
      assert.equal(bad.isError, true);
      assert.equal(bad.json.fix, 'Pass platformId as the 14-16 hex characters of a PlatformId, e.g. 9437A5ADDAE3012D.');
    }
    // A service answer without TitleIds is an empty list.
    const none = fake({ getPlayedTitleList: () => Promise.resolve({} as never) });
    assert.deepEqual((await call('get_played_titles', { platformId: PLAYER.platformId }, none)).json.serviceData.playedTitleIds, []);
  });

  it('get_handheld_store_summary: created, its ApplicationID and each environment\'s ID and ClientID, never ClientSecret', async () => {
    const r = await call('get_handheld_store_summary', { titleId: RACER.titleId });
    assert.equal(r.isError, false, JSON.stringify(r.json));
    const d = r.json.serviceData;
    assert.deepEqual(Object.keys(d), ['titleId', 'Created', 'ApplicationID', 'Environments', 'SubscriptionEnvironments', 'SecondarySubscriptionEnvironments']);
    assert.equal(d.Created, true);
    assert.equal(typeof d.ApplicationID, 'string');
    assert.ok(d.Environments.length > 0 && d.Environments.every((e: object) => Object.keys(e).join() === 'ID,ClientID'));
    assert.ok(!JSON.stringify(r.json).includes('ClientSecret'));
    // Whatever else the service returns: only these members, in these shapes.
    const odd = fake({ getHandheldStore: () => Promise.resolve({ Created: 'yes', ApplicationID: 7, Environments: [{ ID: 'e1', ClientID: 'c1', ClientSecret: 's' }, 'x', null, {}], SubscriptionEnvironments: 'none' } as never) });
    assert.deepEqual((await call('get_handheld_store_summary', {}, odd)).json.serviceData, {
      titleId: 'F71AC', Created: false, ApplicationID: null,
      Environments: [{ ID: 'e1', ClientID: 'c1' }, null, null, { ID: null, ClientID: null }], SubscriptionEnvironments: null, SecondarySubscriptionEnvironments: null,
    });
  });

  it('list_deletion_jobs: the jobs of the titles this server reads (all, or the one named), as Activity shows them', async () => {
    const job = (titleId: string, n: number, extra: Partial<LedgerEntry> = {}): LedgerEntry => ({
      input: `p${n}`, platformId: `9437A5ADDAE3012${n}`, titleId, titleIds: [titleId], jobReceiptId: `r${n}`, requestedAt: `2026-01-0${n}T00:00:00.000Z`, state: 'queued', ...extra,
    });
    jobs = [job(RACER.titleId, 1), job(ARENA.titleId, 2, { state: 'verified-deleted', verifiedAt: '2026-01-05T00:00:00.000Z', jobReceiptId: undefined }), job('C3A5E', 3)];
    const all = await call('list_deletion_jobs', {});
    assert.deepEqual(all.json.serviceData.deletionJobs, [
      { JobReceiptId: 'r1', PlatformId: '9437A5ADDAE30121', TitleId: RACER.titleId, RequestedAt: '2026-01-01T00:00:00.000Z', TitleIds: [RACER.titleId], State: 'queued' },
      { JobReceiptId: null, PlatformId: '9437A5ADDAE30122', TitleId: ARENA.titleId, RequestedAt: '2026-01-02T00:00:00.000Z', TitleIds: [ARENA.titleId], State: 'verified-deleted', VerifiedAt: '2026-01-05T00:00:00.000Z' },
    ]);
    const one = await call('list_deletion_jobs', { titleId: ARENA.titleId.toLowerCase() });
    assert.deepEqual(one.json.serviceData.deletionJobs.map((j: Json) => j.PlatformId), ['9437A5ADDAE30122']);
    // A jobs source that answers with other titles' jobs is filtered too.
    const leaky: ToolContext = { ...ctx(), jobs: () => Promise.resolve(jobs) };
    assert.deepEqual((await runTool(tool('list_deletion_jobs'), { titleId: RACER.titleId }, leaky, [])).result, { serviceData: { deletionJobs: [all.json.serviceData.deletionJobs[0]] }, note: all.json.note });
    assert.equal((await call('list_deletion_jobs', { titleId: 'BEEF' })).isError, true);
    jobs = [];
  });

  it('plan_deletion: a dry run document for a person, each identifier classified; nothing deleted', async () => {
    await emulatorControl(emu.origin, 'stats/reset', {});
    jobs = [{ input: 'x', platformId: DEMO_PLAYERS[1].platformId, titleId: RACER.titleId, titleIds: [RACER.titleId], jobReceiptId: 'r9', requestedAt: '2026-01-01T00:00:00.000Z', state: 'queued' }];
    const r = await call('plan_deletion', { titleId: RACER.titleId, kind: 'platform-id', identifiers: [PLAYER.platformId, DEMO_PLAYERS[1].platformId, 'nothex'] });
    assert.equal(r.isError, false, JSON.stringify(r.json));
    const d = r.json.serviceData;
    assert.equal(d.titleId, RACER.titleId);
    assert.equal(d.toDelete, 1);
    assert.deepEqual(d.counts, { delete: 1, 'already-queued': 1, 'already-deleted': 0, unlinked: 0, duplicate: 0, invalid: 1, failed: 0 }, 'the ledger of the jobs source counts');
    const doc = (d.document as string[]).join('\n');
    assert.ok(doc.startsWith(`# Deletion dry run: 1 of 3 PlatformIds of title ${RACER.titleId} to delete\n\nNothing was deleted. A person reviews this plan and sends it; an agent cannot.\n\n\`\`\`text\n`), doc);
    assert.ok(doc.includes(`\n## To send it\n- In VS Code: run "Platform: Delete Master Player Accounts from List" on a file holding the identifiers below (title ${RACER.titleId}).\n`), doc);
    assert.ok(doc.includes(`  \`platform-explorer delete-players --title ${RACER.titleId} --endpoint '${emu.endpoint}' --kind platform-id --input players.txt --journal deletion-${RACER.titleId}.journal --dry-run\`, check the plan, then run it again with the --confirm value the dry run asks`), doc);
    assert.ok(doc.endsWith(`## players.txt (1 to delete)\n\`\`\`text\n${PLAYER.platformId}\n\`\`\``), doc);
    const live = await call('plan_deletion', { titleId: RACER.titleId, kind: 'consolelive', identifiers: [LIVE], sandbox: 'RETAIL' }, ctx(undefined, false));
    const liveDoc = (live.json.serviceData.document as string[]).join('\n');
    assert.match(liveDoc, /^# Deletion dry run: 1 of 1 ConsoleLive IDs of title F71AC to delete/);
    assert.ok(liveDoc.includes(`--kind consolelive --sandbox RETAIL --input players.txt`), liveDoc);
    const names = await call('plan_deletion', { kind: 'storefront', identifiers: [PLAYER.storefrontNames[0]], sandbox: 'IGNORED' }, { ...ctx([RACER.titleId], false), endpointOf: () => undefined });
    const namesDoc = (names.json.serviceData.document as string[]).join('\n');
    assert.match(namesDoc, /^# Deletion dry run: 1 of 1 Storefront names of title F71AC to delete/);
    assert.ok(namesDoc.includes(`--endpoint 'TEMPLATE' --kind storefront --input players.txt`), namesDoc);
    const bad = await call('plan_deletion', { titleId: RACER.titleId, kind: 'email', identifiers: ['a'] });
    assert.deepEqual([bad.isError, bad.json.error, bad.json.fix], [true, 'kind must be one of platform-id, consolelive, storefront.', 'Pass kind: "platform-id", "consolelive" or "storefront".']);
    const stats = await emulatorControl(emu.origin, 'stats');
    assert.deepEqual(Object.keys(stats.requests).filter((op) => /Delete/.test(op)), []);
    jobs = [];
  });

  it('the listing: names, titles, operations and input schemas as agents see them', () => {
    assert.deepEqual(TOOLS.map((t) => [t.name, t.title, t.openWorld, t.needsJobs === true, [...t.operations]]), [
      ['look_up_platform_ids', 'Look up PlatformIds', true, false, ['GetPlatformIDsFromStorefrontNames', 'GetPlatformIDsFromConsoleLiveIDs']],
      ['get_played_titles', 'Played titles of a player', true, false, ['GetPlayedTitleList']],
      ['get_handheld_store_summary', 'HandheldStore summary', true, false, ['GetEntityToken', 'GetHandheldStore']],
      ['list_deletion_jobs', 'Deletion jobs', false, true, []],
      ['plan_deletion', 'Plan a deletion (dry run)', true, false, ['GetPlatformIDsFromStorefrontNames', 'GetPlatformIDsFromConsoleLiveIDs', 'GetPlayedTitleList']],
    ]);
    for (const t of TOOLS) {
      assert.equal(t.inputSchema.type, 'object');
      assert.match(t.description, /read-only|sends no deletion/i, t.name);
      for (const [name, p] of Object.entries(t.inputSchema.properties)) assert.ok(typeof (p as { description?: string }).description === 'string' && (p as { description: string }).description.length > 10, `${t.name}.${name}`);
    }
    const lookUp = tool('look_up_platform_ids').inputSchema;
    assert.deepEqual(lookUp.required, ['kind', 'identifiers']);
    assert.deepEqual(lookUp.properties.identifiers, {
      type: 'array', items: { type: 'string', maxLength: 256 }, minItems: 1, maxItems: MAX_TOOL_IDENTIFIERS, description: `The identifiers, one per entry (1 to ${MAX_TOOL_IDENTIFIERS}).`,
    });
    assert.deepEqual((lookUp.properties.kind as { enum: string[] }).enum, ['storefrontNames', 'consoleLiveIds']);
    assert.deepEqual(tool('get_played_titles').inputSchema.required, ['platformId']);
    assert.deepEqual((tool('plan_deletion').inputSchema.properties.kind as { enum: string[] }).enum, ['platform-id', 'consolelive', 'storefront']);
    assert.deepEqual(tool('plan_deletion').inputSchema.required, ['kind', 'identifiers']);
    assert.equal(tool('get_handheld_store_summary').inputSchema.required, undefined);
  });
});

const unused = (): Promise<never> => Promise.reject(new Error('not called'));

/** One title (F71AC) whose client answers as `over` says. */
function fake(over: Partial<ToolClient>): ToolContext {
  const client: ToolClient = { getPlatformIdsFromStorefrontNames: unused, getPlatformIdsFromConsoleLiveIds: unused, getPlayedTitleList: unused, getHandheldStore: unused, ...over };
  return { titles: [{ titleId: 'F71AC' }], client: () => Promise.resolve(client), endpointOf: () => undefined, signal: new AbortController().signal };
}
