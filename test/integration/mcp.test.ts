// The MCP server the extension registers, in the real VS Code: the provider is contributed and
// registered, its definition starts the shipped dist/cli.js and answers tools/list, a title not
// allowed in platformExplorer.agentTitles gets no key, and calls are recorded in Activity.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { DEMO_PLAYERS, DEMO_TITLES } from '../../src/emulator/seed';
import { requestCount, script, titleItem, useFreshExtension } from './support/harness';

const [RACER, ARENA] = DEMO_TITLES;
const PLAYER = DEMO_PLAYERS.find((p) => p.playedTitles.length === 2 && p.storefrontNames.length > 0 && !p.banned)!;
const EXTENSION_ID = 'platform-explorer.platform-explorer';

async function setAgentTitles(ids: string[] | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('platformExplorer').update('agentTitles', ids, vscode.ConfigurationTarget.Global);
}

interface Started {
  client: Client;
  env: Record<string, string | number | null>;
  call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; json: Record<string, unknown> }>;
}

describe('MCP server registered by the extension', function () {
  this.timeout(60_000);
  const ctx = useFreshExtension({ emulator: true });
  const running: Client[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((c) => c.close()));
    await setAgentTitles(undefined);
    delete process.env[`PLATFORM_SECRET_KEY_${ARENA.titleId}`];
    delete process.env[`PLATFORM_ENDPOINT_${ARENA.titleId}`];
  });

  async function start(): Promise<Started> {
    const provider = ctx.api.mcpProvider;
    const [def] = provider.provideMcpServerDefinitions();
    assert.ok(!Object.keys(def.env).some((k) => k.startsWith('PLATFORM_SECRET_KEY')), 'no key before VS Code starts the server');
    const resolved = await provider.resolveMcpServerDefinition(def);
    // As VS Code starts it: the extension host's environment, then the definition's (null removes a variable).
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...resolved.env })) if (v !== null && v !== undefined) env[k] = String(v);
    const transport = new StdioClientTransport({ command: resolved.command, args: resolved.args, env, stderr: 'pipe' });
    const client = new Client({ name: 'integration-test', version: '1.0.0' });
    await client.connect(transport);
    running.push(client);
    return {
      client, env: resolved.env,
      call: async (name, args) => {
        const r = await client.callTool({ name, arguments: args });
        return { isError: r.isError === true, json: JSON.parse((r.content as { text: string }[])[0].text) as Record<string, unknown> };
      },
    };
  }

  it('is contributed and registered; its definition runs the shipped CLI and answers tools/list; no title is readable by default', async () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { mcpServerDefinitionProviders: { id: string }[] } };
    assert.deepEqual(pkg.contributes.mcpServerDefinitionProviders.map((p) => p.id), ['platformExplorer.mcp']);
    assert.equal(typeof vscode.lm.registerMcpServerDefinitionProvider, 'function');
    const s = await start();
    const cli = vscode.Uri.joinPath(vscode.extensions.getExtension(EXTENSION_ID)!.extensionUri, 'dist', 'cli.js').fsPath;
    const { tools } = await s.client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ['look_up_platform_ids', 'get_played_titles', 'get_handheld_store_summary', 'list_deletion_jobs', 'plan_deletion']);
    assert.ok(tools.every((t) => t.annotations?.readOnlyHint === true), 'every tool is read-only');
    assert.ok(tools.every((t) => !/delete_players|delete_master/i.test(t.name)));
    assert.deepEqual(Object.keys(s.env).filter((k) => k.startsWith('PLATFORM_SECRET_KEY') && s.env[k] !== null), [], 'no key: no title is allowed');
    assert.ok(!JSON.stringify(s.env).includes(RACER.secretKey) && !JSON.stringify(s.env).includes(ARENA.secretKey));
    assert.ok(cli.endsWith('cli.js'));
    const refused = await s.call('look_up_platform_ids', { titleId: RACER.titleId, kind: 'storefrontNames', identifiers: ['nobody_here'] });
    assert.equal(refused.isError, true);
    assert.match(String(refused.json.fix), /platformExplorer\.agentTitles/);
    assert.doesNotMatch((await titleItem(ctx.api, RACER.titleId)).description, /agents can read/);
  });

  it('an allowed title gets its key, one not allowed gets none (not even one inherited from VS Code\'s environment); the view says which; calls are in Activity; jobs come from the editor', async () => {
    await setAgentTitles([RACER.titleId]);
    // A key the shell that started VS Code had: the server must not inherit it.
    process.env[`PLATFORM_SECRET_KEY_${ARENA.titleId}`] = ARENA.secretKey;
    process.env[`PLATFORM_ENDPOINT_${ARENA.titleId}`] = ctx.api.emulator()!.endpoint;
    assert.match((await titleItem(ctx.api, RACER.titleId)).description, /agents can read/);
    assert.doesNotMatch((await titleItem(ctx.api, ARENA.titleId)).description, /agents can read/);
    const s = await start();
    assert.deepEqual(Object.keys(s.env).filter((k) => k.startsWith('PLATFORM_SECRET_KEY') && s.env[k] !== null), [`PLATFORM_SECRET_KEY_${RACER.titleId}`]);
    assert.equal(s.env[`PLATFORM_SECRET_KEY_${ARENA.titleId}`], null, 'the inherited key of a title not allowed is removed');
    assert.ok(!JSON.stringify(s.env).includes(ARENA.secretKey), 'the title not allowed got its key');

    const lookup = await s.call('look_up_platform_ids', { kind: 'storefrontNames', identifiers: [PLAYER.storefrontNames[0]] });
    assert.equal(lookup.isError, false, JSON.stringify(lookup.json));
    assert.deepEqual((lookup.json.serviceData as { results: unknown[] }).results, [{ StorefrontName: PLAYER.storefrontNames[0], PlatformId: PLAYER.platformId }]);
    const arena = await s.call('get_handheld_store_summary', { titleId: ARENA.titleId });
    assert.equal(arena.isError, true);

    script(ctx.api).press('Delete').typeIn(PLAYER.platformId);
    const receipt = await vscode.commands.executeCommand<{ JobReceiptId: string }>('platformExplorer.deleteMasterPlayerAccount', { titleId: RACER.titleId, platformId: PLAYER.platformId });
    const jobs = await s.call('list_deletion_jobs', {});
    assert.deepEqual((jobs.json.serviceData as { deletionJobs: Record<string, unknown>[] }).deletionJobs.map((j) => [j.JobReceiptId, j.PlatformId, j.State]), [[receipt?.JobReceiptId, PLAYER.platformId, 'queued']]);
    assert.equal(await requestCount(ctx.api, 'Admin/DeleteMasterPlayerAccount'), 1, 'only the command deleted');

    // The calls reach Activity over the channel; wait on the entries, bounded.
    const deadline = Date.now() + 10_000;
    const tools = (): string[] => ctx.api.activity.all().filter((e) => e.command.startsWith('platformExplorer.tool.')).map((e) => `${e.command} ${e.operation} ${e.titleId ?? '-'} ${e.outcome}`);
    while (tools().length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(tools(), [
      `platformExplorer.tool.lookUpPlatformIds GetPlatformIDsFromStorefrontNames ${RACER.titleId} succeeded`,
      `platformExplorer.tool.getHandheldStoreSummary getHandheldStoreSummary ${ARENA.titleId} failed`,
      'platformExplorer.tool.listDeletionJobs listDeletionJobs - succeeded',
    ]);
  });

  it('an untrusted workspace gives no key, even for an allowed title', async () => {
    await setAgentTitles([RACER.titleId]);
    ctx.api.setTrusted(false);
    const s = await start();
    assert.deepEqual(Object.keys(s.env).filter((k) => k.startsWith('PLATFORM_SECRET_KEY') && s.env[k] !== null), []);
  });
});
