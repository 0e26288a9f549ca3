// Fault injection for client tests: latency on every request, and rules that make matching
// requests fail or wait: every time, the next N times, or at a rate (a probability drawn from a
// generator seeded by faultSeed, so a run replays exactly), with a latency distribution.

import { randomInt } from 'node:crypto';
import { seededRandom } from '../core/seededRandom';
import type { Latency } from '../../packages/emulator/index';
import { FieldCheck, invalidParams, isPlainObject } from './http';

const FAULT_KINDS = ['429', '500', '503', 'reset-before', 'reset-after', 'garbage', 'html', 'timeout', 'drip'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export type { Latency };

export interface FaultRule {
  /** What a hit request gets; undefined: only the latency. */
  kind?: FaultKind;
  operation?: string;
  titleId?: string;
  /** Chance from 0 to 1 that a matching request is hit. */
  probability: number;
  /** Remaining uses; -1 = forever. */
  times: number;
  latency?: Latency;
  retryAfterSeconds?: number;
}

export interface FaultConfig {
  latencyMs: number;
  rules: FaultRule[];
}

/** A rule that hit a request: which one (its index when configured), and the latency drawn. */
export interface FaultHit {
  rule: FaultRule;
  index: number;
  latencyMs: number;
}

const MAX_LATENCY_MS = 60_000;
const MAX_RETRY_AFTER_SECONDS = 3600;

const ms = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= MAX_LATENCY_MS;

function parseLatency(v: unknown, path: string, check: FieldCheck): Latency | undefined {
  if (v === undefined) return undefined;
  const bad = () => check.add(path, `${path} must be {kind:"fixed",ms}, {kind:"uniform",minMs,maxMs} or {kind:"normal",meanMs,stdDevMs}, each from 0 to ${MAX_LATENCY_MS} ms.`);
  if (!isPlainObject(v)) return void bad();
  if (v.kind === 'fixed' && ms(v.ms)) return { kind: 'fixed', ms: v.ms };
  if (v.kind === 'uniform' && ms(v.minMs) && ms(v.maxMs) && v.minMs <= v.maxMs) return { kind: 'uniform', minMs: v.minMs, maxMs: v.maxMs };
  if (v.kind === 'normal' && ms(v.meanMs) && ms(v.stdDevMs)) return { kind: 'normal', meanMs: v.meanMs, stdDevMs: v.stdDevMs };
  return void bad();
}

// eslint-disable-next-line complexity -- one check per member of a fault rule, each naming the member
function parseRule(r: unknown, path: string, check: FieldCheck): FaultRule | undefined {
  if (!isPlainObject(r)) return void check.add(path, `${path} must be an object.`);
  const kind = r.kind;
  if (kind !== undefined && (typeof kind !== 'string' || !(FAULT_KINDS as readonly string[]).includes(kind))) {
    return void check.add(`${path}.kind`, `${path}.kind must be one of ${FAULT_KINDS.join(', ')} (or left out for latency only).`);
  }
  const latency = parseLatency(r.latency, `${path}.latency`, check);
  if (kind === undefined && r.latency === undefined) return void check.add(path, `${path} needs a kind, a latency or both.`);
  const operation = check.string(r, 'operation', false, `${path}.operation`);
  const titleId = check.string(r, 'titleId', false, `${path}.titleId`);
  const probability = r.probability ?? 1;
  if (typeof probability !== 'number' || !(probability >= 0 && probability <= 1)) {
    return void check.add(`${path}.probability`, `${path}.probability must be a number from 0 to 1 (0.01 for 1%).`);
  }
  const times = r.times ?? (r.probability === undefined ? 1 : -1);
  if (typeof times !== 'number' || !Number.isInteger(times) || (times < 1 && times !== -1)) {
    return void check.add(`${path}.times`, `${path}.times must be a positive integer, or -1 for forever.`);
  }
  const retry = r.retryAfterSeconds;
  if (retry !== undefined && (typeof retry !== 'number' || !Number.isInteger(retry) || retry < 0 || retry > MAX_RETRY_AFTER_SECONDS)) {
    return void check.add(`${path}.retryAfterSeconds`, `${path}.retryAfterSeconds must be whole seconds from 0 to ${MAX_RETRY_AFTER_SECONDS}.`);
  }
  const rule: FaultRule = { probability, times };
  if (kind !== undefined) rule.kind = kind as FaultKind;
  if (operation !== undefined) rule.operation = operation;
  if (titleId !== undefined) rule.titleId = titleId.toUpperCase();
  if (latency !== undefined) rule.latency = latency;
  if (retry !== undefined) rule.retryAfterSeconds = retry;
  return rule;
}

/** Parses the body of POST /_emulator/faults; throws InvalidParams naming the bad member. */
export function parseFaults(body: Record<string, unknown>): FaultConfig & { seed?: number } {
  const check = new FieldCheck();
  let latencyMs = 0;
  if (body.latencyMs !== undefined) {
    if (!ms(body.latencyMs)) check.add('latencyMs', `latencyMs must be a number from 0 to ${MAX_LATENCY_MS}.`);
    else latencyMs = body.latencyMs;
  }
  const seed = body.seed;
  if (seed !== undefined && (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32)) {
    check.add('seed', 'seed must be a whole number from 0 to 4294967295 (the faultSeed of the run to replay).');
  }
  const raw = body.rules ?? [];
  if (!Array.isArray(raw)) throw invalidParams({ rules: ['rules must be an array of {kind?, operation?, titleId?, probability?, times?, latency?, retryAfterSeconds?}.'] });
  const rules = raw.map((r: unknown, i) => parseRule(r, `rules[${i}]`, check)).filter((r): r is FaultRule => r !== undefined);
  check.done();
  return { latencyMs, rules, ...(typeof seed === 'number' ? { seed } : {}) };
}

export class Faults {
  config: FaultConfig = { latencyMs: 0, rules: [] };
  /** The seed of the generator rate rules draw from (in the --json line and every log entry). */
  seed: number;
  private random: () => number;
  /** Each rule's index as configured (rules used up leave the list). */
  private readonly indexes = new WeakMap<FaultRule, number>();

  constructor(seed?: number) {
    this.seed = seed ?? randomInt(2 ** 31);
    this.random = seededRandom(this.seed);
  }

  /** New rules; the generator starts again from the seed, so a test that sets its rules replays alike. */
  configure(config: FaultConfig & { seed?: number }): void {
    if (config.seed !== undefined) this.seed = config.seed;
    this.config = { latencyMs: config.latencyMs, rules: config.rules };
    config.rules.forEach((r, i) => this.indexes.set(r, i));
    this.random = seededRandom(this.seed);
  }

  /** The first rule matching the request that hits (one draw per matching rule), consuming one use of it. */
  take(operation: string, titleId: string | undefined): FaultHit | undefined {
    const rules = this.config.rules;
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i];
      if ((rule.operation !== undefined && rule.operation !== operation) || (rule.titleId !== undefined && rule.titleId !== titleId)) continue;
      if (this.random() >= rule.probability) continue;
      if (rule.times > 0 && --rule.times === 0) rules.splice(i, 1);
      return { rule, index: this.indexes.get(rule) ?? i, latencyMs: rule.latency ? this.draw(rule.latency) : 0 };
    }
    return undefined;
  }

  private draw(l: Latency): number {
    if (l.kind === 'fixed') return l.ms;
    if (l.kind === 'uniform') return l.minMs + (l.maxMs - l.minMs) * this.random();
    // Box-Muller; clipped to 0..MAX_LATENCY_MS.
    const z = Math.sqrt(-2 * Math.log(1 - this.random())) * Math.cos(2 * Math.PI * this.random());
    return Math.max(0, Math.min(MAX_LATENCY_MS, l.meanMs + l.stdDevMs * z));
  }

  clear(): void {
    this.config = { latencyMs: 0, rules: [] };
  }
}
