// Fault injection for client tests: latency on every request and rules that make the next
// matching request(s) fail in one of several ways.

import { FieldCheck, invalidParams, isPlainObject } from './http';

export const FAULT_KINDS = ['429', '500', '503', 'reset-before', 'reset-after', 'garbage', 'html', 'timeout', 'drip'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  operation?: string;
  /** Remaining uses; -1 = forever. */
  times: number;
  kind: FaultKind;
  retryAfterSeconds?: number;
}

export interface FaultConfig {
  latencyMs: number;
  rules: FaultRule[];
}

const MAX_LATENCY_MS = 60_000;
const MAX_RETRY_AFTER_SECONDS = 3600;

/** Parses the body of POST /_emulator/faults; throws InvalidParams naming the bad member. */
export function parseFaults(body: Record<string, unknown>): FaultConfig {
  const check = new FieldCheck();
  let latencyMs = 0;
  if (body.latencyMs !== undefined) {
    if (typeof body.latencyMs !== 'number' || !Number.isFinite(body.latencyMs) || body.latencyMs < 0 || body.latencyMs > MAX_LATENCY_MS) {
      check.add('latencyMs', `latencyMs must be a number from 0 to ${MAX_LATENCY_MS}.`);
    } else latencyMs = body.latencyMs;
  }
  const rules: FaultRule[] = [];
  const raw = body.rules ?? [];
  if (!Array.isArray(raw)) throw invalidParams({ rules: ['rules must be an array of {operation?, times?, kind, retryAfterSeconds?}.'] });
  raw.forEach((r: unknown, i) => {
    const path = `rules[${i}]`;
    if (!isPlainObject(r)) {
      check.add(path, `${path} must be an object.`);
      return;
    }
    const kind = r.kind;
    if (typeof kind !== 'string' || !(FAULT_KINDS as readonly string[]).includes(kind)) {
      check.add(`${path}.kind`, `${path}.kind must be one of ${FAULT_KINDS.join(', ')}.`);
      return;
    }
    const operation = check.string(r, 'operation', false, `${path}.operation`);
    const times = r.times ?? 1;
    if (typeof times !== 'number' || !Number.isInteger(times) || (times < 1 && times !== -1)) {
      check.add(`${path}.times`, `${path}.times must be a positive integer, or -1 for forever.`);
      return;
    }
    const retry = r.retryAfterSeconds;
    if (retry !== undefined && (typeof retry !== 'number' || !Number.isInteger(retry) || retry < 0 || retry > MAX_RETRY_AFTER_SECONDS)) {
      check.add(`${path}.retryAfterSeconds`, `${path}.retryAfterSeconds must be whole seconds from 0 to ${MAX_RETRY_AFTER_SECONDS}.`);
      return;
    }
    const rule: FaultRule = { kind: kind as FaultKind, times };
    if (operation !== undefined) rule.operation = operation;
    if (retry !== undefined) rule.retryAfterSeconds = retry;
    rules.push(rule);
  });
  check.done();
  return { latencyMs, rules };
}

export class Faults {
  config: FaultConfig = { latencyMs: 0, rules: [] };

  /** The first rule matching the operation, consuming one use of it. */
  take(operation: string): FaultRule | undefined {
    const rules = this.config.rules;
    if (rules.length === 0) return undefined;
    const i = rules.findIndex((r) => r.operation === undefined || r.operation === operation);
    if (i < 0) return undefined;
    const rule = rules[i];
    if (rule.times > 0 && --rule.times === 0) rules.splice(i, 1);
    return rule;
  }

  clear(): void {
    this.config = { latencyMs: 0, rules: [] };
  }
}
