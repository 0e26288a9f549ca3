// Runs one tool: checks its declared operations, gives its handler a client that can make only
// those calls, and turns the answer (or the failure) into what an agent receives.
import { PlatformError } from '../api/errors';
import { OPERATIONS, type OperationName } from '../api/operations';
import { asToolData, dataString, DATA_NOTE, type ToolData } from './data';
import { ToolInputError, type ToolClient, type ToolContext, type ToolDefinition } from './types';

/** The operations a ToolClient method sends. */
type ReadMethod = Exclude<keyof ToolClient, 'knownSecretValues'>;
const METHOD_OPERATIONS: Record<ReadMethod, readonly OperationName[]> = {
  getPlatformIdsFromStorefrontNames: ['GetPlatformIDsFromStorefrontNames'],
  getPlatformIdsFromConsoleLiveIds: ['GetPlatformIDsFromConsoleLiveIDs'],
  getPlayedTitleList: ['GetPlayedTitleList'],
  getHandheldStore: ['GetEntityToken', 'GetHandheldStore'],
};

/** Operations of `def` that change state: none may be declared. */
export function mutatingOperations(def: ToolDefinition): OperationName[] {
  return def.operations.filter((op) => OPERATIONS[op].mutating);
}

/**
 * `client` seen through the tool's declared operations: a method whose operation the tool did not
 * declare, or a mutating one, fails before any request. Only read methods exist on a ToolClient.
 */
export function restrictClient(client: ToolClient, def: ToolDefinition): ToolClient {
  const allowed = new Set(def.operations.filter((op) => !OPERATIONS[op].mutating));
  const guard = <K extends ReadMethod>(method: K): ToolClient[K] => ((...args: unknown[]) => {
    const missing = METHOD_OPERATIONS[method].filter((op) => !allowed.has(op));
    if (missing.length > 0) return Promise.reject(new Error(`Tool ${def.name} did not declare ${missing.join(', ')}.`));
    return (client[method] as (...a: unknown[]) => Promise<unknown>).apply(client, args);
  }) as ToolClient[K];
  return {
    getPlatformIdsFromStorefrontNames: guard('getPlatformIdsFromStorefrontNames'),
    getPlatformIdsFromConsoleLiveIds: guard('getPlatformIdsFromConsoleLiveIds'),
    getPlayedTitleList: guard('getPlayedTitleList'),
    getHandheldStore: guard('getHandheldStore'),
  };
}

export interface ToolOutcome {
  isError: boolean;
  /** What the agent receives (JSON). */
  result: ToolData | { error: string; fix: string; note: string };
  titleId?: string;
  /** How it ended, for Activity and the log. */
  outcome: 'succeeded' | 'failed' | 'cancelled';
  errorCode?: number;
}

/** Runs `def` with `input`; never throws: a failure is a tool error whose text names the fix. */
export async function runTool(def: ToolDefinition, input: unknown, ctx: ToolContext, secrets: readonly string[]): Promise<ToolOutcome> {
  const used: ToolClient[] = [];
  const restricted: ToolContext = { ...ctx, client: async (titleId) => {
    const c = await ctx.client(titleId);
    used.push(c);
    return restrictClient(c, def);
  } };
  // The keys given, and whatever the clients learned on the way (an entity token the service echoes).
  const masked = (): readonly string[] => [...secrets, ...used.flatMap((c) => c.knownSecretValues?.() ?? [])];
  const args = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  try {
    const { titleId, data } = await def.run(args, restricted);
    return { isError: false, result: asToolData(data, masked()), titleId, outcome: 'succeeded' };
  } catch (e) {
    const fix = e instanceof ToolInputError ? e.fix : e instanceof PlatformError ? e.hint : 'Try again; if it keeps failing, see the server\'s log.';
    const message = e instanceof Error ? e.message : String(e);
    const cancelled = ctx.signal.aborted || (e instanceof PlatformError && e.kind === 'cancelled');
    return {
      isError: true,
      // The message may quote the service (its errorMessage): clipped and labelled like any service text.
      result: { error: dataString(message, masked(), 1000), fix: dataString(fix, masked(), 1000), note: `the error may quote the service: ${DATA_NOTE}` },
      titleId: typeof args.titleId === 'string' && /^[0-9A-Fa-f]{4,16}$/.test(args.titleId) ? args.titleId.toUpperCase() : ctx.titles.length === 1 && args.titleId === undefined ? ctx.titles[0].titleId : undefined,
      outcome: cancelled ? 'cancelled' : 'failed',
      errorCode: e instanceof PlatformError ? e.errorCode : undefined,
    };
  }
}
