// How a row of the operation table departs from its published description: each problem one line
// naming the operation, the member, and the fix. The row may be more lenient than the description
// (a member it leaves optional, `any`, a nullable value, a map over a described object), never stricter,
// and names no member the description lacks (beyond the spec's own, listed here).
import type { OperationName, OperationSpec } from '../../../src/core/api/operations';
import type { Schema } from '../../../src/core/api/schema';
import { ErrorCodes } from '../../../src/core/api/types';

type TypeRef = string | { array: TypeRef } | { map: TypeRef };
interface Described {
  operations: Record<string, { auth: string[]; request: string; result: string; errors?: { name: string }[] }>;
  types: Record<string, { members: Record<string, { type: TypeRef; required?: boolean }> } | { enum: string[] }>;
}

/** Members the spec (platform-api.md) adds to the description's types. */
const SPEC_MEMBERS: Record<string, readonly string[]> = {
  GetHandheldStoreResponse: ['SecondarySubscriptionEnvironments', 'SubscriptionEnvironments'],
};
/** Request members the description marks required that the service reads as false when absent (docs/service-behaviour.md). */
const ABSENT_READS_FALSE = new Set(['GetPlayerCombinedInfoRequestParams', 'PlayerProfileViewConstraints']);

const join = (at: string, k: string): string => (at === '' ? k : `${at}.${k}`);

const SCALAR_KIND: Record<string, Schema['kind']> = { string: 'string', timestamp: 'string', boolean: 'boolean', integer: 'integer', number: 'number' };

export function rowProblems(name: OperationName, row: OperationSpec, described: Described): string[] {
  const path = row.path;
  const copy = `copy ${path} from ../shared/api-schema.json into docs/api-schema.json`;
  const fixRow = `fix the row in src/core/api/operations.ts (or, if the description is older, ${copy})`;
  const op = described.operations[path];
  // The one failure of a row added before its description (the other contract checks skip it).
  if (op === undefined) {
    return [`${name}: docs/api-schema.json has no ${path}: write its description under "operations" (its types under "types") in ../shared/api-schema.json, then copy it here with node scripts/check-api-schema.mjs --write`];
  }
  const problems: string[] = [];
  const auth = [...row.auth].sort().join(', ');
  if (auth !== [...op.auth].sort().join(', ')) problems.push(`${name}: the row accepts ${auth}, the description ${op.auth.join(', ')}: ${fixRow}`);

  const compare = (s: Schema, t: TypeRef, at: string, part: 'request' | 'result', seen: ReadonlySet<string>): void => {
    if (s.kind === 'any') return;
    if (s.kind === 'nullable') return compare(s.inner, t, at, part, seen);
    const differs = (what: string): void => { problems.push(`${name}: ${part} ${at || '(the whole)'} is ${s.kind} in the row but ${what} in the description: ${fixRow}`); };
    if (typeof t === 'object') {
      if ('array' in t) return s.kind === 'array' ? compare(s.item, t.array, `${at}[]`, part, seen) : differs('an array');
      return s.kind === 'map' ? compare(s.item, t.map, `${at}{}`, part, seen) : differs('a map');
    }
    if (t === 'any') return differs('any');
    if (t in SCALAR_KIND) {
      // An integer where the description says number is stricter; a number where it says integer is not.
      const ok = s.kind === SCALAR_KIND[t] || (t === 'integer' && s.kind === 'number');
      return ok ? undefined : differs(t);
    }
    const def = described.types[t];
    if (def === undefined) return void problems.push(`${name}: docs/api-schema.json lacks the type ${t}: ${copy}`);
    if ('enum' in def) return s.kind === 'string' ? undefined : differs(`the enum ${t}`);
    // A map over a described object lets every member through: more lenient, never stricter.
    if (s.kind === 'map') return compare(s.item, 'any', `${at}{}`, part, seen);
    if (s.kind !== 'object') return differs(`the object ${t}`);
    if (seen.has(t)) return;
    const inner = new Set([...seen, t]);
    for (const [k, m] of Object.entries(s.members)) {
      const pub = def.members[k];
      if (pub === undefined) {
        if (!SPEC_MEMBERS[t]?.includes(k)) problems.push(`${name}: ${part} member ${join(at, k)} is not in ${t} of docs/api-schema.json: ${fixRow}`);
        continue;
      }
      if (m.required && pub.required !== true) problems.push(`${name}: the row requires ${part} member ${join(at, k)}, which ${t} makes optional: ${fixRow}`);
      compare(m.schema, pub.type, join(at, k), part, inner);
    }
    for (const [k, pub] of Object.entries(def.members)) {
      const m = s.members[k];
      if (part === 'request' && pub.required === true && !m?.required && !ABSENT_READS_FALSE.has(t)) {
        problems.push(`${name}: ${t} requires request member ${join(at, k)}, which the row ${m === undefined ? 'lacks' : 'leaves optional'}: ${fixRow}`);
      } else if (m === undefined) {
        problems.push(`${name}: ${part} member ${join(at, k)} of ${t} is missing from the row: ${fixRow}`);
      }
    }
  };
  // Its texts: one for each error the description documents; none for a name nobody sends.
  const documented = (op.errors ?? []).map((e) => e.name);
  for (const e of documented.filter((d) => !Object.hasOwn(row.errors, d))) {
    problems.push(`${name}: docs/api-schema.json documents the error ${e} for ${path}, and the row has no text for it: add ${e}: { title, hint } to the row's errors in src/core/api/operations.ts (general('${e}') where the general text fits)`);
  }
  for (const e of Object.keys(row.errors).filter((k) => !Object.hasOwn(ErrorCodes, k) && !documented.includes(k))) {
    problems.push(`${name}: the row's errors name ${e}, which neither ErrorCodes (src/core/api/types.ts) nor ${path}'s description knows: fix the name in src/core/api/operations.ts`);
  }
  compare(row.request, op.request, '', 'request', new Set());
  compare(row.result, op.result, '', 'result', new Set());
  return problems;
}
