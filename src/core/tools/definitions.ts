// The agent tools: look up PlatformIds, played titles, the HandheldStore summary, deletion jobs, and
// a deletion dry run as a document for a person to run. None sends a mutating operation.
// Not offered as tools (yet): account info (GetUserAccountInfo) and data requests; the client and
// core/requests have them, but no tool here exposes them.
import { DEFAULT_SANDBOX } from '../api/types';
import { buildPlan, countByStatus, renderPlanText, toDelete } from '../deletion/plan';
import { readIdentifiers } from '../deletion/input';
import type { IdKind, LedgerEntry } from '../deletion/types';
import { ID_KINDS } from '../deletion/types';
import { validatePlatformId, validateTitleId } from '../ids';
import { ToolInputError, type ToolContext, type ToolDefinition, type ToolTitle } from './types';

/** At most this many identifiers per call: a chat turn is not a bulk job. */
export const MAX_TOOL_IDENTIFIERS = 500;
/** Characters of one identifier an agent may pass. */
const MAX_IDENTIFIER = 256;

const titleIdProperty = { type: 'string', description: 'Hex title ID (e.g. F71AC) of a title this server may read; may be left out when it has one.' };
const identifiersProperty = {
  type: 'array', items: { type: 'string', maxLength: MAX_IDENTIFIER }, minItems: 1, maxItems: MAX_TOOL_IDENTIFIERS,
  description: `The identifiers, one per entry (1 to ${MAX_TOOL_IDENTIFIERS}).`,
};

function known(titles: readonly ToolTitle[]): string {
  return titles.map((t) => t.titleId).join(', ') || 'none';
}

/** The title a call acts on: the one named, else the only one the server has. */
export function titleOf(input: Record<string, unknown>, ctx: ToolContext): string {
  const v = input.titleId;
  if (v === undefined || v === '') {
    if (ctx.titles.length === 1) return ctx.titles[0].titleId;
    throw new ToolInputError('titleId is required: this server reads more than one title.', `Pass titleId, one of: ${known(ctx.titles)}.`);
  }
  const problem = validateTitleId(typeof v === 'string' ? v.trim() : v);
  if (problem) throw new ToolInputError(`titleId: ${problem}`, `Pass titleId, one of: ${known(ctx.titles)}.`);
  const id = (v as string).trim().toUpperCase();
  if (!ctx.titles.some((t) => t.titleId === id)) {
    throw new ToolInputError(`Title ${id} is not one this server may read (no key was given for it).`,
      `Pass titleId, one of: ${known(ctx.titles)}; in VS Code, add ${id} to the setting platformExplorer.agentTitles.`);
  }
  return id;
}

function identifiers(input: Record<string, unknown>): string[] {
  const v = input.identifiers;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || x.length > MAX_IDENTIFIER)) {
    throw new ToolInputError('identifiers must be a list of strings.', `Pass identifiers as ["name1", "name2"], each at most ${MAX_IDENTIFIER} characters.`);
  }
  const list = [...new Set((v as string[]).map((x) => x.trim()).filter((x) => x.length > 0))];
  if (list.length === 0 || list.length > MAX_TOOL_IDENTIFIERS) {
    throw new ToolInputError(`identifiers holds ${list.length} distinct entries.`, `Pass 1 to ${MAX_TOOL_IDENTIFIERS} identifiers per call; split a longer list.`);
  }
  return list;
}

function sandboxOf(input: Record<string, unknown>): string {
  const v = input.sandbox;
  if (v === undefined || v === '') return DEFAULT_SANDBOX;
  if (typeof v !== 'string' || !/^[A-Za-z0-9._-]{1,64}$/.test(v)) {
    throw new ToolInputError('sandbox is not a sandbox name.', `Leave sandbox out for ${DEFAULT_SANDBOX}, or pass letters, digits, dots, dashes (up to 64).`);
  }
  return v;
}

const lookUp: ToolDefinition = {
  name: 'look_up_platform_ids',
  title: 'Look up PlatformIds',
  description: 'Finds the PlatformId linked to each Storefront name or ConsoleLive ID of a title (read-only). Each identifier comes back with its PlatformId, or null when no account is linked.',
  inputSchema: {
    type: 'object',
    properties: {
      titleId: titleIdProperty,
      kind: { type: 'string', enum: ['storefrontNames', 'consoleLiveIds'], description: 'Which identifiers these are.' },
      identifiers: identifiersProperty,
      sandbox: { type: 'string', description: `ConsoleLive sandbox (default ${DEFAULT_SANDBOX}).` },
    },
    required: ['kind', 'identifiers'],
  },
  operations: ['GetPlatformIDsFromStorefrontNames', 'GetPlatformIDsFromConsoleLiveIDs'],
  openWorld: true,
  async run(input, ctx) {
    const titleId = titleOf(input, ctx);
    if (input.kind !== 'storefrontNames' && input.kind !== 'consoleLiveIds') {
      throw new ToolInputError('kind must be "storefrontNames" or "consoleLiveIds".', 'Pass kind: "storefrontNames" or "consoleLiveIds".');
    }
    const ids = identifiers(input);
    const client = await ctx.client(titleId);
    if (input.kind === 'consoleLiveIds') {
      const sandbox = sandboxOf(input);
      const pairs = await client.getPlatformIdsFromConsoleLiveIds(ids, sandbox, { signal: ctx.signal });
      return { titleId, data: { titleId, sandbox, results: pairs.map((p) => ({ ConsoleLiveAccountId: p.ConsoleLiveAccountId, PlatformId: p.PlatformId ?? null })) } };
    }
    const pairs = await client.getPlatformIdsFromStorefrontNames(ids, { signal: ctx.signal });
    return { titleId, data: { titleId, results: pairs.map((p) => ({ StorefrontName: p.StorefrontName, PlatformId: p.PlatformId ?? null })) } };
  },
};

const played: ToolDefinition = {
  name: 'get_played_titles',
  title: 'Played titles of a player',
  description: 'Lists the title IDs a player (PlatformId) has played across the publisher\'s titles (GetPlayedTitleList, read-only).',
  inputSchema: {
    type: 'object',
    properties: { titleId: titleIdProperty, platformId: { type: 'string', maxLength: 64, description: 'The player\'s PlatformId (14-16 hex characters).' } },
    required: ['platformId'],
  },
  operations: ['GetPlayedTitleList'],
  openWorld: true,
  async run(input, ctx) {
    const titleId = titleOf(input, ctx);
    const platformId = typeof input.platformId === 'string' ? input.platformId.trim().toUpperCase() : '';
    const problem = validatePlatformId(platformId);
    if (problem) throw new ToolInputError(problem, 'Pass platformId as the 14-16 hex characters of a PlatformId, e.g. 9437A5ADDAE3012D.');
    const { TitleIds } = await (await ctx.client(titleId)).getPlayedTitleList(platformId, { signal: ctx.signal });
    return { titleId, data: { titleId, platformId, playedTitleIds: TitleIds ?? [] } };
  },
};

const ENVIRONMENT_LISTS = ['Environments', 'SubscriptionEnvironments', 'SecondarySubscriptionEnvironments'] as const;

const handheldStore: ToolDefinition = {
  name: 'get_handheld_store_summary',
  title: 'HandheldStore summary',
  description: 'Summarises a title\'s HandheldStore add-on: whether it is created, its ApplicationID, and each environment\'s ID and ClientID (read-only; ClientSecret is never included).',
  inputSchema: { type: 'object', properties: { titleId: titleIdProperty } },
  operations: ['GetEntityToken', 'GetHandheldStore'],
  openWorld: true,
  async run(input, ctx) {
    const titleId = titleOf(input, ctx);
    const config = (await (await ctx.client(titleId)).getHandheldStore({ signal: ctx.signal })) as Record<string, unknown>;
    // Only these members, whatever else the service returns: ClientSecret never.
    const envs = (v: unknown): unknown => (Array.isArray(v)
      ? v.map((e) => (typeof e === 'object' && e !== null ? { ID: (e as Record<string, unknown>).ID ?? null, ClientID: (e as Record<string, unknown>).ClientID ?? null } : null))
      : null);
    return {
      titleId,
      data: {
        titleId, Created: config.Created === true, ApplicationID: typeof config.ApplicationID === 'string' ? config.ApplicationID : null,
        ...Object.fromEntries(ENVIRONMENT_LISTS.map((k) => [k, envs(config[k])])),
      },
    };
  },
};

function jobView(j: LedgerEntry): Record<string, unknown> {
  return {
    JobReceiptId: j.jobReceiptId ?? null, PlatformId: j.platformId, TitleId: j.titleId, RequestedAt: j.requestedAt,
    TitleIds: j.titleIds, State: j.state, ...(j.verifiedAt ? { VerifiedAt: j.verifiedAt } : {}),
  };
}

const deletionJobs: ToolDefinition = {
  name: 'list_deletion_jobs',
  title: 'Deletion jobs',
  description: 'Reports the master player account deletions requested from this machine: JobReceiptId, PlatformId, title, time requested, titles affected and state (queued, verified-deleted, failed, unknown, pending). Read-only: it cannot delete anything.',
  inputSchema: { type: 'object', properties: { titleId: { type: 'string', description: 'Only this title\'s jobs (default: every title this server may read).' } } },
  operations: [],
  openWorld: false,
  needsJobs: true,
  async run(input, ctx) {
    const titleId = input.titleId === undefined || input.titleId === '' ? undefined : titleOf(input, ctx);
    const readable = new Set(ctx.titles.map((t) => t.titleId));
    const jobs = (await ctx.jobs!(titleId)).filter((j) => readable.has(j.titleId) && (titleId === undefined || j.titleId === titleId));
    return { titleId, data: { deletionJobs: jobs.map(jobView) } };
  },
};

const KIND_NAMES: Record<IdKind, string> = { 'platform-id': 'PlatformIds', consolelive: 'ConsoleLive IDs', storefront: 'Storefront names' };

const planDeletion: ToolDefinition = {
  name: 'plan_deletion',
  title: 'Plan a deletion (dry run)',
  description: 'Builds the dry run of a master player account deletion for a person to review and run: each identifier resolved and classified (to delete, already queued, unlinked, invalid, duplicate). It sends no deletion; the document says how a person sends it.',
  inputSchema: {
    type: 'object',
    properties: {
      titleId: titleIdProperty,
      kind: { type: 'string', enum: [...ID_KINDS], description: 'platform-id, consolelive or storefront.' },
      identifiers: identifiersProperty,
      sandbox: { type: 'string', description: `ConsoleLive sandbox (default ${DEFAULT_SANDBOX}); consolelive only.` },
    },
    required: ['kind', 'identifiers'],
  },
  operations: ['GetPlatformIDsFromStorefrontNames', 'GetPlatformIDsFromConsoleLiveIDs', 'GetPlayedTitleList'],
  openWorld: true,
  async run(input, ctx) {
    const titleId = titleOf(input, ctx);
    const kind = input.kind as IdKind;
    if (!ID_KINDS.includes(kind)) throw new ToolInputError(`kind must be one of ${ID_KINDS.join(', ')}.`, 'Pass kind: "platform-id", "consolelive" or "storefront".');
    const lines = readIdentifiers(identifiers(input).join('\n'), kind);
    const sandbox = kind === 'consolelive' ? sandboxOf(input) : undefined;
    const client = await ctx.client(titleId);
    const ledger = ctx.jobs ? await ctx.jobs(titleId) : [];
    const plan = await buildPlan({
      getPlatformIdsFromStorefrontNames: (n, o) => client.getPlatformIdsFromStorefrontNames(n, o),
      getPlatformIdsFromConsoleLiveIds: (n, s, o) => client.getPlatformIdsFromConsoleLiveIds(n, s, o),
      getPlayedTitleList: (p, o) => client.getPlayedTitleList(p, o),
      deleteMasterPlayerAccount: () => Promise.reject(new Error('A plan never deletes.')),
    }, { titleId, kind, sandbox, lines, ledger, signal: ctx.signal });
    const count = toDelete(plan).length;
    const endpoint = ctx.endpointOf(titleId) ?? 'TEMPLATE';
    const command = `platform-explorer delete-players --title ${titleId} --endpoint '${endpoint}' --kind ${kind}${sandbox ? ` --sandbox ${sandbox}` : ''} --input players.txt --journal deletion-${titleId}.journal`;
    // One line per entry: each line is clipped on its own, so the document keeps its shape.
    const document = [
      `# Deletion dry run: ${count} of ${lines.length} ${KIND_NAMES[kind]} of title ${titleId} to delete`,
      '',
      'Nothing was deleted. A person reviews this plan and sends it; an agent cannot.',
      '',
      '```text', ...renderPlanText(plan).trimEnd().split('\n'), '```',
      '',
      '## To send it',
      `- In VS Code: run "Platform: Delete Master Player Accounts from List" on a file holding the identifiers below (title ${titleId}).`,
      '- From a terminal, with the title\'s secret key in PLATFORM_SECRET_KEY and the identifiers below in players.txt:',
      `  \`${command} --dry-run\`, check the plan, then run it again with the --confirm value the dry run asks for.`,
      '',
      `## players.txt (${count} to delete)`,
      '```text', ...toDelete(plan).map((e) => e.input), '```',
    ];
    return { titleId, data: { titleId, counts: countByStatus(plan), toDelete: count, document } };
  },
};

/** Every tool, in the order they are listed. */
export const TOOLS: readonly ToolDefinition[] = [lookUp, played, handheldStore, deletionJobs, planDeletion];
