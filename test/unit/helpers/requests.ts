// A request for any row of the operation table, built from its request schema: every required
// member with a plain value (PlatformId members a given PlatformId), so lists of calls derive from
// the table instead of being kept by hand.
import { OPERATIONS, type OperationName } from '../../../src/core/api/operations';
import type { PlatformClient } from '../../../src/core/api/client';
import type { CallOptions } from '../../../src/core/api/options';
import type { Schema } from '../../../src/core/api/schema';

function sample(s: Schema, key: string, platformId: string): unknown {
  switch (s.kind) {
    case 'object':
      return Object.fromEntries(Object.entries(s.members).filter(([, m]) => m.required).map(([k, m]) => [k, sample(m.schema, k, platformId)]));
    case 'array': return [sample(s.item, key, platformId)];
    case 'map': return {};
    case 'nullable': return sample(s.inner, key, platformId);
    case 'boolean': return false;
    case 'integer': case 'number': return 0;
    default: return key === 'PlatformId' ? platformId : `sample-${key}`;
  }
}

/** A request `name` accepts, its PlatformId members set to `platformId`. */
export function sampleRequest(name: OperationName, platformId: string): Record<string, unknown> {
  return sample(OPERATIONS[name].request, '', platformId) as Record<string, unknown>;
}

/** Sends row `name` through the entry point its `mutating` says (read or mutate). */
export function send(client: PlatformClient, name: OperationName, request: Record<string, unknown>, o?: CallOptions): Promise<unknown> {
  return OPERATIONS[name].mutating ? client.mutate(name as never, request as never, o) : client.read(name as never, request as never, o);
}
