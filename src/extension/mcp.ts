// The MCP server the extension registers (contributes.mcpServerDefinitionProviders): the CLI it
// ships (dist/cli.js) run as `mcp` by VS Code's own Node.js. It replaces the language-model tools:
// one implementation (src/core/tools) for VS Code's agent mode and every other MCP client.
// Keys reach the server only through its environment, only for the titles the user listed in
// platformExplorer.agentTitles (default none), only in a trusted workspace. Its calls come back
// over a local channel and go into Activity; it reads the deletion jobs over the same channel.
import * as vscode from 'vscode';
import { hostChannel, type ChannelHost, type ToolCallRecord } from '../core/tools/channel';
import type { ActivityOutcome } from './activity/store';
import type { Services } from './services';
import { AGENT_TITLES_SETTING, agentTitleIds, SECTION } from './settings';

const MCP_PROVIDER_ID = 'platformExplorer.mcp';
const LABEL = 'Platform Explorer';

/** `look_up_platform_ids` -> `platformExplorer.tool.lookUpPlatformIds` (Activity's command names). */
function activityCommand(tool: string): string {
  return `platformExplorer.tool.${tool.replace(/[^a-z_]/gi, '').replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase())}`;
}

export class McpProvider implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private channel: Promise<ChannelHost> | undefined;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly s: Services) {
    this.subscriptions = [
      this.changed,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${SECTION}.${AGENT_TITLES_SETTING}`)) {
          this.changed.fire();
          s.tree.refresh();
        }
      }),
      s.secrets.onDidChange(() => this.changed.fire()),
    ];
  }

  private definition(version: string): vscode.McpStdioServerDefinition {
    const cli = vscode.Uri.joinPath(this.s.ctx.extensionUri, 'dist', 'cli.js').fsPath;
    // VS Code's own Node.js: the editor's binary run as Node (ELECTRON_RUN_AS_NODE), or node itself in a server.
    return new vscode.McpStdioServerDefinition(LABEL, process.execPath, [cli, 'mcp'], { ELECTRON_RUN_AS_NODE: '1' }, version);
  }

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    // No key here: VS Code calls this eagerly. The version changes with the allowed titles, so VS Code offers a refresh.
    return [this.definition([...agentTitleIds()].sort().join(',') || 'none')];
  }

  /** Fills in the environment when VS Code starts the server: keys of allowed titles, their endpoints, the channel. */
  async resolveMcpServerDefinition(server: vscode.McpStdioServerDefinition): Promise<vscode.McpStdioServerDefinition> {
    // VS Code starts the server with the extension host's environment plus this one: a key or endpoint
    // variable inherited from the shell that started VS Code is removed (null), so only allowed titles are read.
    const env: Record<string, string | null> = Object.fromEntries(
      Object.keys(process.env).filter((k) => /^PLATFORM_(SECRET_KEY|ENDPOINT)(_|$)/i.test(k)).map((k) => [k, null]),
    );
    Object.assign(env, { ELECTRON_RUN_AS_NODE: '1' }, (await this.channelHost()).env);
    const allowed = agentTitleIds();
    const trusted = this.s.clients.isTrusted();
    for (const title of this.s.titles.all()) {
      if (!allowed.has(title.titleId) || !trusted) continue;
      const key = await this.s.secrets.get(title.titleId);
      if (!key) continue;
      env[`PLATFORM_SECRET_KEY_${title.titleId}`] = key;
      env[`PLATFORM_ENDPOINT_${title.titleId}`] = this.s.clients.endpointFor(title);
    }
    server.env = env;
    const readable = Object.keys(env).filter((k) => k.startsWith('PLATFORM_ENDPOINT_') && env[k] !== null).map((k) => k.slice(18));
    this.s.log.info(`MCP server started by VS Code: agents may read ${readable.join(', ') || 'no title'}${trusted ? '' : ' (workspace not trusted: no key given)'}.`);
    return server;
  }

  private channelHost(): Promise<ChannelHost> {
    this.channel ??= hostChannel({
      onCall: (r) => void this.record(r),
      jobs: (titleId) => this.s.jobs.all().filter((j) => titleId === undefined || j.titleId === titleId),
    });
    return this.channel;
  }

  private async record(r: ToolCallRecord): Promise<void> {
    const outcomes: readonly ActivityOutcome[] = ['succeeded', 'failed', 'cancelled'];
    if (typeof r !== 'object' || r === null || typeof r.tool !== 'string' || !outcomes.includes(r.outcome)) return;
    const ops = Array.isArray(r.operations) ? r.operations.filter((o) => typeof o === 'string') : [];
    // The store checks every field again (formats, lengths) and drops a malformed entry.
    await this.s.activity.add({
      time: String(r.time), command: activityCommand(r.tool), operation: ops.join(', ') || activityCommand(r.tool).slice(22),
      titleId: typeof r.titleId === 'string' ? r.titleId : undefined, outcome: r.outcome,
      errorCode: Number.isInteger(r.errorCode) ? r.errorCode : undefined, durationMs: Number(r.durationMs),
    });
  }

  dispose(): void {
    this.subscriptions.forEach((d) => d.dispose());
    void this.channel?.then((c) => c.close());
  }
}

/** Registers the provider where VS Code has the API (1.101 and later). */
export function registerMcpServer(s: Services): { provider: McpProvider; disposables: vscode.Disposable[] } {
  const provider = new McpProvider(s);
  const disposables: vscode.Disposable[] = [provider];
  if (vscode.lm?.registerMcpServerDefinitionProvider) disposables.push(vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider));
  return { provider, disposables };
}
