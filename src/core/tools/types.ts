// A tool for agents, defined once: its name, description, input schema, the service operations it
// may call, and a handler over a client that offers only those operations. The MCP server
// (src/cli/mcp.ts) serves these definitions; every one is read-only by construction.
import type { OperationName } from '../api/operations';
import type { CallOptions } from '../api/options';
import type { ConsoleLivePlatformIdPair, GetPlayedTitleListResult, HandheldStoreConfig, StorefrontPlatformIdPair } from '../api/types';
import type { LedgerEntry } from '../deletion/types';

/** The client calls a tool can make: reads only; the client refuses operations a tool did not declare (CallOptions.only). */
export interface ToolClient {
  getPlatformIdsFromStorefrontNames(names: readonly string[], o?: CallOptions): Promise<StorefrontPlatformIdPair[]>;
  getPlatformIdsFromConsoleLiveIds(ids: readonly string[], sandbox?: string, o?: CallOptions): Promise<ConsoleLivePlatformIdPair[]>;
  getPlayedTitleList(platformId: string, o?: CallOptions): Promise<GetPlayedTitleListResult>;
  getHandheldStore(o?: CallOptions): Promise<HandheldStoreConfig>;
  /** The secrets this client has seen (its key, the entity tokens it fetched): masked in every result. */
  knownSecretValues?(): readonly string[];
}

/** A title the server may read: one whose key it was given. */
export interface ToolTitle {
  titleId: string;
  name?: string;
}

/** What a handler runs against. */
export interface ToolContext {
  /** The titles this server has keys for (the only ones a tool may name). */
  titles: readonly ToolTitle[];
  /** A read-only client of one of `titles`, restricted to the tool's declared operations. */
  client(titleId: string): Promise<ToolClient>;
  /** Deletion jobs recorded on this machine, when the server has a source for them. */
  jobs?: (titleId?: string) => Promise<readonly LedgerEntry[]>;
  /** The title's endpoint template, for the command line a planned deletion shows. */
  endpointOf(titleId: string): string | undefined;
  signal: AbortSignal;
}

/** JSON Schema of a tool's input (an object). */
export interface InputSchema {
  type: 'object';
  properties: Record<string, object>;
  required?: string[];
  additionalProperties?: boolean;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: InputSchema;
  /** Every service operation the handler may call (a test checks none is mutating). */
  operations: readonly OperationName[];
  /** True when the tool reaches the service (an open world); false for local records only. */
  openWorld: boolean;
  /** Needs ToolContext.jobs: listed only where the server has deletion jobs to read. */
  needsJobs?: boolean;
  /** Returns what the tool read (service strings inside); the caller labels, clips and redacts it. */
  run(input: Record<string, unknown>, ctx: ToolContext): Promise<{ titleId?: string; data: unknown }>;
}

/** Bad input or a title the server cannot use: a tool error whose text says what to fix. */
export class ToolInputError extends Error {
  constructor(message: string, readonly fix: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}
