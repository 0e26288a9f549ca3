// Runs one tool: checks its declared operations, gives its handler a client that can make only
// those calls, and turns the answer (or the failure) into what an agent receives.
import { PlatformError } from '../api/errors';
import { OPERATIONS, type OperationName } from '../api/operations';
import type { CallOptions } from '../api/options';
import { asToolData, dataString, DATA_NOTE, type ToolData } from './data';
import { ToolInputError, type ToolClient, type ToolContext, type ToolDefinition } from './types';

/** Operations of `def` that change state: none may be declared. */
export function mutatingOperations(def: ToolDefinition): OperationName[] {
  return def.operations.filter((op) => OPERATIONS[op].mutating);
}

/**
 * `client` seen through the tool's declared operations: the client itself refuses, before any
 * request, every operation outside them (and any mutating one), whichever method sends it; a
 * title token's GetEntityToken counts too. Only read methods exist on a ToolClient.
 */
export function restrictClient(client: ToolClient, def: ToolDefinition): ToolClient {
  const only = { operations: new Set<string>(def.operations.filter((op) => !OPERATIONS[op].mutating)), caller: `Tool ${def.name}` };
  const o = (x?: CallOptions): CallOptions => ({ ...x, only });
  return {
    getPlatformIdsFromStorefrontNames: (names, x) => client.getPlatformIdsFromStorefrontNames(names, o(x)),
    getPlatformIdsFromConsoleLiveIds: (ids, sandbox, x) => client.getPlatformIdsFromConsoleLiveIds(ids, sandbox, o(x)),
    getPlayedTitleList: (platformId, x) => client.getPlayedTitleList(platformId, o(x)),
    getHandheldStore: (x) => client.getHandheldStore(o(x)),
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
// eslint-disable-next-line complexity -- the tool call's steps in order (input check, restricted client, run, clip and mask), each with its own error
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
