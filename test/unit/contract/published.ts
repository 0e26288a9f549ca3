// The service's published description (docs/api-schema.json), read independently of the product's
// own operation table: a strict conformance check for what the emulator answers, and a fast-check
// generator of every answer the description allows (for the client's tolerance).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';

type TypeRef = string | { array: TypeRef } | { map: TypeRef };
interface MemberDef { type: TypeRef; required?: boolean }
type TypeDef = { members: Record<string, MemberDef> } | { enum: string[] };
interface OperationDef { auth: string[]; request: string; result: string; errors: { name: string; code: number }[] }
interface Published { operations: Record<string, OperationDef>; types: Record<string, TypeDef> }

export const published: Published = JSON.parse(readFileSync(resolve(__dirname, '../../../../docs/api-schema.json'), 'utf8')) as Published;

/** Members the spec (platform-api.md) adds to the description's types; the emulator may send them. */
const SPEC_MEMBERS: Record<string, string[]> = {
  GetHandheldStoreResponse: ['SecondarySubscriptionEnvironments', 'SubscriptionEnvironments'],
};
/** Members the spec gives the same type as a described one. */
const SPEC_MEMBER_TYPES: Record<string, TypeRef> = {
  'GetHandheldStoreResponse.SecondarySubscriptionEnvironments': { array: 'HandheldStoreEnvironment' },
  'GetHandheldStoreResponse.SubscriptionEnvironments': { array: 'HandheldStoreEnvironment' },
};

const SCALARS = new Set(['string', 'boolean', 'integer', 'number', 'timestamp', 'any']);

function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every way `value` departs from `type` (strictly: unknown members and enum values count too). */
/** `unknownMembers: 'allowed'` for what a client must accept (a newer service may add members). */
export function violations(value: unknown, type: TypeRef, path = 'data', unknownMembers: 'refused' | 'allowed' = 'refused'): string[] {
  if (typeof type === 'object') {
    if ('array' in type) {
      if (!Array.isArray(value)) return [`${path} should be an array`];
      return value.flatMap((v, i) => violations(v, type.array, `${path}[${i}]`, unknownMembers));
    }
    if (!isPlain(value)) return [`${path} should be an object`];
    return Object.entries(value).flatMap(([k, v]) => violations(v, type.map, `${path}.${k}`, unknownMembers));
  }
  switch (type) {
    case 'any': return [];
    case 'string': return typeof value === 'string' ? [] : [`${path} should be a string`];
    case 'boolean': return typeof value === 'boolean' ? [] : [`${path} should be a boolean`];
    case 'integer': return Number.isSafeInteger(value) ? [] : [`${path} should be an integer (got ${JSON.stringify(value)})`];
    case 'number': return typeof value === 'number' && Number.isFinite(value) ? [] : [`${path} should be a number`];
    case 'timestamp': return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? [] : [`${path} should be a timestamp`];
  }
  const def = published.types[type];
  if (def === undefined) return [`${path}: unknown type ${type}`];
  if ('enum' in def) return typeof value === 'string' && (def.enum.includes(value) || unknownMembers === 'allowed') ? [] : [`${path} should be one of ${type} (got ${JSON.stringify(value)})`];
  if (!isPlain(value)) return [`${path} should be an object (${type})`];
  const out: string[] = [];
  for (const [k, m] of Object.entries(def.members)) {
    const v = value[k];
    if (v === undefined || v === null) {
      if (m.required === true) out.push(`${path}.${k} is required by ${type}`);
      continue;
    }
    out.push(...violations(v, m.type, `${path}.${k}`, unknownMembers));
  }
  for (const k of Object.keys(value)) {
    if (k in def.members || unknownMembers === 'allowed') continue;
    const specType = SPEC_MEMBER_TYPES[`${type}.${k}`];
    if (SPEC_MEMBERS[type]?.includes(k) && specType !== undefined) {
      if (value[k] !== null && value[k] !== undefined) out.push(...violations(value[k], specType, `${path}.${k}`));
    } else {
      out.push(`${path}.${k} is not a member of ${type}`);
    }
  }
  return out;
}

const ERROR_WRAPPER: Record<string, { type: TypeRef; required: boolean }> = {
  code: { type: 'integer', required: true },
  status: { type: 'string', required: false },
  error: { type: 'string', required: false },
  errorCode: { type: 'integer', required: true },
  errorMessage: { type: 'string', required: false },
  errorDetails: { type: { map: { array: 'string' } }, required: false },
  retryAfterSeconds: { type: 'number', required: false },
};

/** What is wrong with an answer envelope of operation `path` (`<Area>/<Operation>`). */
export function answerViolations(path: string, httpStatus: number, body: unknown): string[] {
  const op = published.operations[path];
  if (op === undefined) return [`${path} is not a published operation`];
  if (!isPlain(body)) return [`${path}: the answer is not a JSON object`];
  if (httpStatus === 200 && !('errorCode' in body)) {
    const out = body.code === 200 ? [] : [`${path}: code should be 200`];
    return [...out, ...violations(body.data, op.result)];
  }
  const out: string[] = [];
  for (const [k, m] of Object.entries(ERROR_WRAPPER)) {
    if (body[k] === undefined) {
      if (m.required) out.push(`${path}: the error wrapper lacks ${k}`);
    } else out.push(...violations(body[k], m.type, `error.${k}`));
  }
  for (const k of Object.keys(body)) if (!(k in ERROR_WRAPPER)) out.push(`${path}: the error wrapper has an unknown member ${k}`);
  return out;
}

// ---- Generator ------------------------------------------------------------------------------

const word = fc.string({ minLength: 1, maxLength: 8, unit: fc.constantFrom(...'ABCDEFabcdef0123456789_-'.split('')) });
const timestampArb = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 0, 1) })
  .chain((ms) => fc.constantFrom(new Date(ms).toISOString(), new Date(ms).toISOString().slice(0, -1)));
/** Members a newer service may add: never one of the described names. */
const unknownMember = fc.tuple(fc.constantFrom('Extra', 'FutureMember', 'Unlisted', 'NewPart'), word).map(([a, b]) => `${a}${b}`);
const anyJson = fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean(), fc.dictionary(word, fc.string({ maxLength: 5 }), { maxKeys: 2 }));

export interface GenOptions {
  /** Members that must be present although the description makes them optional (the product needs them), as `Type.Member`. */
  alsoRequired?: readonly string[];
}

/** Every answer of `type` the published description allows: optional members dropped or null at random, unknown members added, unknown enum values. */
export function arbitraryOf(type: TypeRef, o: GenOptions = {}, depth = 0): fc.Arbitrary<unknown> {
  if (typeof type === 'object') {
    const inner = arbitraryOf('array' in type ? type.array : type.map, o, depth + 1);
    return 'array' in type
      ? fc.array(inner, { maxLength: depth > 3 ? 1 : 3 })
      : fc.dictionary(word, inner, { maxKeys: depth > 3 ? 1 : 3 });
  }
  if (SCALARS.has(type)) {
    switch (type) {
      case 'string': return fc.string({ maxLength: 12 });
      case 'boolean': return fc.boolean();
      case 'integer': return fc.integer({ min: -(2 ** 31), max: 2 ** 31 });
      // JSON has no -0: it would come back as 0.
      case 'number': return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map((x) => (x === 0 ? 0 : x));
      case 'timestamp': return timestampArb;
      default: return anyJson;
    }
  }
  const def = published.types[type];
  // The description says: accept unknown values of its enums.
  if ('enum' in def) return fc.oneof(fc.constantFrom(...def.enum), word.map((w) => `Unknown${w}`));
  const members: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredKeys: string[] = [];
  for (const [k, m] of Object.entries(def.members)) {
    const value = arbitraryOf(m.type, o, depth + 1);
    if (m.required === true || o.alsoRequired?.includes(`${type}.${k}`)) {
      members[k] = value;
      requiredKeys.push(k);
    } else {
      members[k] = fc.oneof({ weight: 3, arbitrary: value }, { weight: 1, arbitrary: fc.constant(null) });
    }
  }
  const known = fc.record(members, { requiredKeys });
  return fc.tuple(known, fc.dictionary(unknownMember, anyJson, { maxKeys: depth === 0 ? 2 : 1 }))
    .map(([k, extra]) => ({ ...extra, ...k }));
}
