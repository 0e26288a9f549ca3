// A small JSON Schema checker for the subset the seed file schema uses (type, properties,
// required, additionalProperties, propertyNames, items, min/maxItems, min/maxProperties,
// pattern, min/maxLength, enum, minimum/maximum, anyOf, $ref to #/$defs). One schema both
// published (--print-seed-schema) and enforced, so the two never drift apart.
import { childPath } from './jsonLines';

export interface JsonSchema {
  $ref?: string;
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  maxProperties?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  enum?: readonly (string | number | boolean | null)[];
  minimum?: number;
  maximum?: number;
  anyOf?: JsonSchema[];
  format?: string;
  default?: unknown;
  $defs?: Record<string, JsonSchema>;
}

export interface SchemaIssue {
  path: string;
  message: string;
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function describe(v: unknown): string {
  const t = typeOf(v);
  if (t === 'string') {
    const s = v as string;
    return `the string ${JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s)}`;
  }
  if (t === 'integer' || t === 'number' || t === 'boolean') return String(v);
  return t === 'array' ? 'an array' : t === 'object' ? 'an object' : t;
}

const matchesType = (want: string, v: unknown): boolean => want === typeOf(v) || (want === 'number' && typeOf(v) === 'integer');

const article = (t: string): string => (t === 'array' || t === 'object' || t === 'integer' ? `an ${t}` : t === 'null' ? 'null' : `a ${t}`);

export function checkSchema(root: JsonSchema, value: unknown): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const resolve = (s: JsonSchema): JsonSchema => (s.$ref ? resolve(root.$defs![s.$ref.replace('#/$defs/', '')]) : s);

  // eslint-disable-next-line complexity -- one case per JSON Schema keyword the seed schema uses
  const visit = (schema: JsonSchema, v: unknown, path: string, out: SchemaIssue[]): void => {
    const s = resolve(schema);
    const add = (message: string, at = path) => out.push({ path: at, message });
    if (s.anyOf) {
      const tries = s.anyOf.map((b) => { const o: SchemaIssue[] = []; visit(b, v, path, o); return o; });
      if (tries.some((t) => t.length === 0)) return;
      // The branch of the value's own type explains best; otherwise list what is allowed.
      const own = s.anyOf.map(resolve).findIndex((b) => b.type !== undefined && matchesType(b.type, v));
      if (own >= 0 && s.anyOf.map(resolve).filter((b) => b.type !== undefined && matchesType(b.type, v)).length === 1) out.push(...tries[own]);
      else add(`must be ${s.description ?? s.anyOf.map((b) => article(resolve(b).type ?? 'value')).join(' or ')}, not ${describe(v)}`);
      return;
    }
    if (s.type && !matchesType(s.type, v)) {
      add(`must be ${article(s.type)}, not ${describe(v)}`);
      return;
    }
    if (s.enum && !s.enum.includes(v as string)) {
      add(`must be one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}, not ${describe(v)}`);
      return;
    }
    if (typeof v === 'string') {
      if (s.minLength !== undefined && v.length < s.minLength) add(`must have at least ${s.minLength} characters`);
      else if (s.maxLength !== undefined && v.length > s.maxLength) add(`must have at most ${s.maxLength} characters (it has ${v.length})`);
      else if (s.pattern && !new RegExp(s.pattern, 'u').test(v)) add(`${describe(v)} does not match ${s.description ? `the format: ${s.description}` : s.pattern}`);
    }
    if (typeof v === 'number') {
      if (s.minimum !== undefined && v < s.minimum) add(`must be at least ${s.minimum}, not ${v}`);
      if (s.maximum !== undefined && v > s.maximum) add(`must be at most ${s.maximum}, not ${v}`);
    }
    if (Array.isArray(v)) {
      if (s.minItems !== undefined && v.length < s.minItems) add(`must have at least ${s.minItems} entr${s.minItems === 1 ? 'y' : 'ies'}`);
      if (s.maxItems !== undefined && v.length > s.maxItems) add(`must have at most ${s.maxItems} entries (it has ${v.length})`);
      else if (s.items) v.forEach((x, i) => visit(s.items!, x, childPath(path, i), out));
    }
    if (typeOf(v) === 'object') {
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o);
      if (s.maxProperties !== undefined && keys.length > s.maxProperties) add(`must have at most ${s.maxProperties} members (it has ${keys.length})`);
      for (const r of s.required ?? []) if (!(r in o)) add(`is missing the required member "${r}"`);
      for (const k of keys) {
        const at = childPath(path, k);
        if (s.propertyNames) {
          const o2: SchemaIssue[] = [];
          visit(s.propertyNames, k, at, o2);
          if (o2.length > 0) { add(`the member name ${JSON.stringify(k.slice(0, 40))} is not allowed: ${o2[0].message}`, at); continue; }
        }
        const prop = s.properties?.[k];
        if (prop) visit(prop, o[k], at, out);
        else if (s.additionalProperties === false) {
          const known = Object.keys(s.properties ?? {});
          add(`is not a known member${known.length ? ` (known: ${known.join(', ')})` : ''}`, at);
        } else if (typeof s.additionalProperties === 'object') visit(s.additionalProperties, o[k], at, out);
      }
    }
  };
  visit(root, value, '', issues);
  return issues;
}
