// Language model tools for chat in agent mode: look up PlatformIds, show played titles, read
// the HandheldStore summary, report deletion jobs. All read-only: no tool deletes anything,
// and what they return is an allow-list of fields (never ClientSecret, a key or a token).
import * as vscode from 'vscode';
import { DEFAULT_SANDBOX } from '../core/api/types';
import { validatePlatformId } from '../core/ids';
import { redactObject } from '../core/redact';
import { recordActivity } from './activity/recorder';
import { CommandError, describeFailure } from './errors';
import type { Services } from './services';
import type { TitleRecord } from './titles';

interface TitleInput {
  titleId?: string;
}
interface LookupInput extends TitleInput {
  kind: 'storefrontNames' | 'consoleLiveIds';
  identifiers: string[];
  sandbox?: string;
}
interface PlayedInput extends TitleInput {
  platformId: string;
}

/** At most this many identifiers per tool call: a chat turn is not a bulk job. */
const MAX_TOOL_IDENTIFIERS = 500;

export const TOOL_NAMES = {
  lookUp: 'platformExplorer_lookUpPlatformIds',
  played: 'platformExplorer_getPlayedTitles',
  handheldStore: 'platformExplorer_getHandheldStoreSummary',
  jobs: 'platformExplorer_getDeletionJobs',
} as const;

function titleFor(s: Services, input: TitleInput): TitleRecord {
  const named = typeof input.titleId === 'string' ? input.titleId.trim() : '';
  const t = named ? s.titles.get(named) : s.activeTitle.current();
  if (!t) {
    const known = s.titles.all().map((x) => `${x.titleId} (${x.name})`).join(', ') || 'none';
    throw new CommandError(
      named ? `Title ${/^[0-9A-Fa-f]{1,16}$/.test(named) ? named : '(malformed)'} is not configured.` : 'No active title.',
      `Pass titleId, one of: ${known}.`,
    );
  }
  return t;
}

function stringList(v: unknown, what: string): string[] {
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
    throw new CommandError(`${what} must be a list of strings.`);
  }
  const list = [...new Set((v as string[]).map((x) => x.trim()).filter((x) => x.length > 0))];
  if (list.length === 0 || list.length > MAX_TOOL_IDENTIFIERS) {
    throw new CommandError(`${what} must hold 1 to ${MAX_TOOL_IDENTIFIERS} entries.`);
  }
  return list;
}

/** Runs a tool body, recorded in Activity; failures become a text the model can read. */
function tool<T>(s: Services, name: string, body: (input: T, signal: AbortSignal) => Promise<unknown>): vscode.LanguageModelTool<T> {
  return {
    async invoke(options, token) {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      let out: unknown;
      try {
        out = await recordActivity(s.activity, `platformExplorer.tool.${name.replace(/^platformExplorer_/, '')}`, () => body(options.input, abort.signal));
      } catch (e) {
        const { message, hint } = describeFailure(e, s.secrets.known());
        out = { error: hint ? `${message} ${hint}` : message };
      } finally {
        sub.dispose();
      }
      const text = JSON.stringify(redactObject(out, s.secrets.known()), null, 2);
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
    },
  };
}

async function lookUp(s: Services, input: LookupInput, signal: AbortSignal): Promise<unknown> {
  const title = titleFor(s, input);
  const ids = stringList(input.identifiers, 'identifiers');
  const client = await s.clients.get(title.titleId);
  if (input.kind === 'consoleLiveIds') {
    const sandbox = typeof input.sandbox === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(input.sandbox) ? input.sandbox : DEFAULT_SANDBOX;
    const pairs = await client.getPlatformIdsFromConsoleLiveIds(ids, sandbox, { signal });
    return { titleId: title.titleId, sandbox, results: pairs.map((p) => ({ ConsoleLiveAccountId: p.ConsoleLiveAccountId, PlatformId: p.PlatformId ?? null })) };
  }
  if (input.kind !== 'storefrontNames') {
    throw new CommandError('kind must be "storefrontNames" or "consoleLiveIds".');
  }
  const pairs = await client.getPlatformIdsFromStorefrontNames(ids, { signal });
  return { titleId: title.titleId, results: pairs.map((p) => ({ StorefrontName: p.StorefrontName, PlatformId: p.PlatformId ?? null })) };
}

async function played(s: Services, input: PlayedInput, signal: AbortSignal): Promise<unknown> {
  const title = titleFor(s, input);
  const platformId = typeof input.platformId === 'string' ? input.platformId.trim().toUpperCase() : '';
  const problem = validatePlatformId(platformId);
  if (problem) {
    throw new CommandError(problem);
  }
  const { TitleIds } = await (await s.clients.get(title.titleId)).getPlayedTitleList(platformId, { signal });
  return { titleId: title.titleId, platformId, playedTitleIds: TitleIds ?? [] };
}

const ENVIRONMENT_LISTS = ['Environments', 'SubscriptionEnvironments', 'SecondarySubscriptionEnvironments'] as const;

async function handheldStore(s: Services, input: TitleInput): Promise<unknown> {
  const title = titleFor(s, input);
  const config = (await (await s.clients.get(title.titleId)).getHandheldStore()) as Record<string, unknown>;
  // Only these members, whatever else the service returns: ClientSecret never.
  const envs = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map((e) => (typeof e === 'object' && e !== null ? { ID: (e as Record<string, unknown>).ID, ClientID: (e as Record<string, unknown>).ClientID } : null))
      : null;
  return {
    titleId: title.titleId,
    Created: config.Created === true,
    ApplicationID: typeof config.ApplicationID === 'string' ? config.ApplicationID : null,
    ...Object.fromEntries(ENVIRONMENT_LISTS.map((k) => [k, envs(config[k])])),
  };
}

async function deletionJobs(s: Services, input: TitleInput): Promise<unknown> {
  const named = typeof input.titleId === 'string' && input.titleId.trim() ? titleFor(s, input).titleId : undefined;
  const jobs = s.jobs.all().filter((j) => named === undefined || j.titleId === named);
  return {
    deletionJobs: jobs.map((j) => {
      const state = (j as unknown as Record<string, unknown>).state;
      return {
        JobReceiptId: j.jobReceiptId ?? null,
        PlatformId: j.platformId,
        TitleId: j.titleId,
        RequestedAt: j.requestedAt,
        TitleIds: j.titleIds,
        // The ledger's state where the store keeps one (queued -> verified-deleted); a receipt alone is queued.
        State: typeof state === 'string' ? state : 'queued',
      };
    }),
  };
}

export function registerLanguageModelTools(s: Services): vscode.Disposable[] {
  if (!vscode.lm?.registerTool) {
    return [];
  }
  return [
    vscode.lm.registerTool<LookupInput>(TOOL_NAMES.lookUp, tool(s, TOOL_NAMES.lookUp, (i, signal) => lookUp(s, i, signal))),
    vscode.lm.registerTool<PlayedInput>(TOOL_NAMES.played, tool(s, TOOL_NAMES.played, (i, signal) => played(s, i, signal))),
    vscode.lm.registerTool<TitleInput>(TOOL_NAMES.handheldStore, tool(s, TOOL_NAMES.handheldStore, (i) => handheldStore(s, i))),
    vscode.lm.registerTool<TitleInput>(TOOL_NAMES.jobs, tool(s, TOOL_NAMES.jobs, (i) => deletionJobs(s, i))),
  ];
}
