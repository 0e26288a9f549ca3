// A small typed schema: builders whose TypeScript type is inferred (Infer<typeof s>), and one
// checker that copies a value while collecting every problem with its path. Written here rather
// than taken from a schema library because the copy must be safe for JSON's own "__proto__"
// members (assigned, they would replace the copy's prototype) and must pass unknown members
// through untouched, and both the client (first problem → a clear error) and the emulator (all
// problems → errorDetails per field) read the same issues.

export type Schema<T = unknown> =
  | { readonly kind: 'string' | 'boolean' | 'integer' | 'number' | 'any'; readonly _t?: T }
  | { readonly kind: 'array'; readonly item: Schema; readonly min?: number; readonly max?: number; readonly _t?: T }
  | { readonly kind: 'map'; readonly item: Schema; readonly _t?: T }
  | { readonly kind: 'nullable'; readonly inner: Schema; readonly _t?: T }
  | { readonly kind: 'object'; readonly members: Readonly<Record<string, Member>>; readonly _t?: T };

/** A member of an object: its schema and whether an answer (or request) must carry it. */
export interface Member<T = unknown> {
  readonly schema: Schema<T>;
  readonly required: boolean;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

type MemberShape = Record<string, Schema | Member>;
type IsOptional<M> = M extends Member<unknown> ? (M['required'] extends false ? true : false) : false;
type MemberType<M> = M extends Member<infer T> ? T : M extends Schema<infer T> ? T : never;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
type ObjectType<M extends MemberShape> = Simplify<
  { [K in keyof M as IsOptional<M[K]> extends true ? never : K]: MemberType<M[K]> }
  & { [K in keyof M as IsOptional<M[K]> extends true ? K : never]?: MemberType<M[K]> }
>;

export const str: Schema<string> = { kind: 'string' };
export const bool: Schema<boolean> = { kind: 'boolean' };
export const int: Schema<number> = { kind: 'integer' };
export const anyValue: Schema<unknown> = { kind: 'any' };
/** An ISO 8601 string (the service's samples differ in their zone suffix, so only the type is checked). */
export const timestamp: Schema<string> = str;

export function array<T>(item: Schema<T>, bounds: { min?: number; max?: number } = {}): Schema<T[]> {
  return { kind: 'array', item, ...bounds };
}

export function map<T>(item: Schema<T>): Schema<Record<string, T>> {
  return { kind: 'map', item };
}

/** A value that may be null (e.g. a lookup entry for an unlinked identifier). */
export function nullable<T>(inner: Schema<T>): Schema<T | null> {
  return { kind: 'nullable', inner };
}

/** An optional member: absent or null in an answer both read as absent. */
export function optional<T>(schema: Schema<T>): Member<T> & { readonly required: false } {
  return { schema, required: false };
}

/** An object: plain schemas are required members, optional(...) ones are not; unknown members pass through. */
export function object<M extends MemberShape>(members: M): Schema<ObjectType<M>> {
  const out: Record<string, Member> = {};
  for (const [k, m] of Object.entries(members)) {
    out[k] = 'kind' in m ? { schema: m, required: true } : m;
  }
  return { kind: 'object', members: out };
}

export interface Issue {
  /** e.g. `data.InfoResultPayload.UserDataVersion` or `ConsoleLiveAccountIDs[3]`. */
  path: string;
  message: string;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Sets an own property, even for a key named "__proto__". */
export function put(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

const EXPECTED: Record<string, string> = {
  string: 'a string', boolean: 'true or false', integer: 'a whole number', number: 'a number',
  array: 'an array', map: 'an object', object: 'an object', nullable: 'a value or null',
};

/** At most this many issues are collected: enough to name every field of a request, bounded for hostile input. */
const MAX_ISSUES = 50;

// Paths name service keys, which can be any length: each key is clipped and so is the whole
// path, so an issue's message stays short however long or deep the service's members are.
const MAX_KEY = 60;
const MAX_PATH = 200;

function bounded(path: string): string {
  return path.length > MAX_PATH ? `${path.slice(0, MAX_PATH)}…` : path;
}

function child(path: string, key: string): string {
  if (path.length > MAX_PATH) return path;
  const k = key.length > MAX_KEY ? `${key.slice(0, MAX_KEY)}…` : key;
  return bounded(path === '' ? k : `${path}.${k}`);
}

function indexed(path: string, i: number): string {
  return path.length > MAX_PATH ? path : bounded(`${path}[${i}]`);
}

// eslint-disable-next-line complexity -- one case per schema kind: the checker is the switch
function walk(v: unknown, s: Schema, path: string, issues: Issue[]): unknown {
  const fail = (): undefined => {
    const message = v === undefined ? `${path} is missing` : `${path} should be ${EXPECTED[s.kind]} but is ${describeValue(v)}`;
    if (issues.length < MAX_ISSUES) issues.push({ path, message });
    return undefined;
  };
  switch (s.kind) {
    case 'any': return v;
    case 'nullable': return v === null ? null : walk(v, s.inner, path, issues);
    case 'string': return typeof v === 'string' ? v : fail();
    case 'boolean': return typeof v === 'boolean' ? v : fail();
    case 'number': return typeof v === 'number' && Number.isFinite(v) ? v : fail();
    case 'integer': return typeof v === 'number' && Number.isSafeInteger(v) ? v : fail();
    case 'array': {
      if (!Array.isArray(v)) return fail();
      if (s.min !== undefined && v.length < s.min && issues.length < MAX_ISSUES) {
        issues.push({ path, message: `${path} must contain at least ${s.min} ${s.min === 1 ? 'entry' : 'entries'}` });
      }
      if (s.max !== undefined && v.length > s.max) {
        if (issues.length < MAX_ISSUES) issues.push({ path, message: `${path} has ${v.length} entries; send at most ${s.max} per request` });
        return undefined;
      }
      return v.map((x, i) => walk(x, s.item, indexed(path, i), issues));
    }
    case 'map': {
      if (!isPlainObject(v)) return fail();
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) put(out, k, walk(item, s.item, child(path, k), issues));
      return out;
    }
    case 'object': {
      if (!isPlainObject(v)) return fail();
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) put(out, k, item);
      for (const [k, m] of Object.entries(s.members)) {
        const item = v[k];
        const at = child(path, k);
        if (item === undefined || item === null) {
          if (m.required && issues.length < MAX_ISSUES) issues.push({ path: at, message: `${at} is missing` });
          delete out[k];
          continue;
        }
        put(out, k, walk(item, m.schema, at, issues));
      }
      return out;
    }
  }
}

/**
 * `value` checked against `schema`: a copy in which unknown members pass through and optional
 * members that are null are dropped, and every problem found (up to a bound).
 */
export function validate<T>(value: unknown, schema: Schema<T>, path: string): { value: T; issues: Issue[] } {
  const issues: Issue[] = [];
  const out = walk(value, schema, path, issues) as T;
  return { value: out, issues };
}
