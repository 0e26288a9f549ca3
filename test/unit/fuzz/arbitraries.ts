// Hostile response bodies for the envelope fuzz tests: wrong types, missing members, huge arrays,
// deep nesting, invalid UTF-8, truncated JSON, HTML pages and prototype keys.
import fc from 'fast-check';
import { checkResult } from '../../../src/core/api/exchange';
import type { OperationName } from '../../../src/core/api/operations';

/** Runs per property: FUZZ_RUNS (npm run test:fuzz sets 10000), 1000 in the normal unit run. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? '') > 0 ? Number(process.env.FUZZ_RUNS) : 1000;

// Member names the parser looks at, plus keys that are special to JavaScript objects.
const NAMES = [
  'code', 'status', 'data', 'error', 'errorCode', 'errorMessage', 'errorDetails', 'retryAfterSeconds',
  'JobReceiptId', 'TitleIds', 'Data', 'PlatformId', 'ConsoleLiveAccountId', 'StorefrontName',
  'EntityToken', 'TokenExpiration', 'Entity', 'Id', 'Type', 'TypeString',
  'Created', 'ApplicationID', 'Environments', 'SubscriptionEnvironments', 'SecondarySubscriptionEnvironments',
  'ClientID', 'ClientSecret', 'ID', 'NewlyCreated', 'InfoResultPayload', 'AccountInfo', 'TitleInfo', 'TitlePlayerAccount',
  'UserData', 'UserVirtualCurrency', 'UserVirtualCurrencyRechargeTimes', 'PlayerProfile', 'Value', 'Variables', 'Variants',
  'TreatmentAssignment', 'SettingsForUser', 'SessionTicket', 'LastLoginTime',
  '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'length',
];

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null), fc.boolean(), fc.integer(), fc.double(), fc.constantFrom(0, -1, 1e308, 200, 400, 429, 1000, 1336, 19009),
  fc.string(), fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', '2026-01-01T00:00:00Z', 'not a date', '<script>alert(1)</script>', '9437A5ADDAE3012D', 'X-SecretKey: abc'),
);

export const jsonish: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 6 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...NAMES), fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 6 }),
  ),
})).value;

/** Well-formed `data` of each operation, the starting point for mutations. */
const SAMPLES: Record<string, unknown> = {
  deleteMasterPlayerAccount: { JobReceiptId: 'job-1', TitleIds: ['F71AC', 'A248'] },
  getPlayedTitleList: { TitleIds: ['F71AC'] },
  loginWithLauncher: {
    NewlyCreated: false, PlatformId: '9437A5ADDAE3012D', SessionTicket: 'ticket', LastLoginTime: '2026-01-01T00:00:00',
    EntityToken: { EntityToken: 'tok', TokenExpiration: '2026-01-02T00:00:00Z', Entity: { Id: 'E1', Type: 'title_player_account', TypeString: 'title_player_account' } },
    InfoResultPayload: {
      AccountInfo: { PlatformId: '9437A5ADDAE3012D', Username: 'u', TitleInfo: { Origination: 'Custom', TitlePlayerAccount: { Id: 'E1', Type: 'title_player_account' } } },
      UserVirtualCurrency: { GC: 10 }, UserData: { k: { Value: 'v', LastUpdated: '2026-01-01T00:00:00', Permission: 'Public' } },
      UserVirtualCurrencyRechargeTimes: { GC: { SecondsToRecharge: 1, RechargeTime: '2026-01-01T00:00:00', RechargeMax: 5 } },
      UserDataVersion: 1, PlayerProfile: { TitleId: 'F71AC', PlayerId: '9437A5ADDAE3012D', DisplayName: 'n', TotalValueToDateInUSD: 0 },
    },
    SettingsForUser: { GatherDeviceInfo: true, GatherFocusInfo: false, NeedsAttribution: false },
    TreatmentAssignment: { Variables: [{ Name: 'a', Value: 'b' }], Variants: ['v'] },
  },
  entityToken: { EntityToken: 'tok', TokenExpiration: '2026-01-02T00:00:00Z', Entity: { Id: 'F71AC', Type: 'title', TypeString: 'title' } },
  handheldStore: {
    Created: true, ApplicationID: '123',
    Environments: [{ ClientID: 'c', ClientSecret: null, ID: 'e' }], SubscriptionEnvironments: [], SecondarySubscriptionEnvironments: [{ ClientID: 'd', ID: 'f' }],
  },
  empty: {},
  lookupConsoleLive: { Data: [{ ConsoleLiveAccountId: 'a', PlatformId: '9437A5ADDAE3012D' }, { ConsoleLiveAccountId: 'b', PlatformId: null }, null] },
  lookupStorefront: { Data: [{ StorefrontName: 'a', PlatformId: '9437A5ADDAE3012D' }, { StorefrontName: 'b', PlatformId: null }] },
};

export interface Op {
  name: string;
  /** The row's result check, as the client applies it to every answer. */
  validate: (data: unknown) => unknown;
  /** Throws when a value the parser accepted (or, `fromClient`, the client's method returned) does not have the promised shape. */
  check: (v: unknown, fromClient?: boolean) => void;
}

const row = (name: OperationName) => (d: unknown): unknown => checkResult(name, d);

function fail(why: string): never {
  throw new Error(`accepted a value of the wrong shape: ${why}`);
}
const isStr = (v: unknown): boolean => typeof v === 'string';
function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}
function strArray(v: unknown, what: string): void {
  if (!Array.isArray(v) || !v.every(isStr)) fail(`${what} is not a string array`);
}
function optStr(o: Record<string, unknown>, k: string, what: string): void {
  if (o[k] !== undefined && !isStr(o[k])) fail(`${what}.${k} is not a string`);
}
function entity(v: unknown, what: string): void {
  if (!isPlain(v) || !isStr(v.Id) || (v.Type !== undefined && !isStr(v.Type))) fail(`${what} is not an entity key`);
}
function environments(v: unknown, what: string, fromClient: boolean): void {
  if (v === undefined) return;
  if (!Array.isArray(v)) fail(`${what} is not an array`);
  for (const e of v) {
    if (!isPlain(e)) fail(`${what}[] is not an object`);
    if (fromClient && 'ClientSecret' in e) fail(`${what}[] still has ClientSecret`);
    optStr(e, 'ClientID', what);
    optStr(e, 'ID', what);
  }
}
function lookupCheck(idMember: string): (v: unknown) => void {
  return (v) => {
    if (!isPlain(v)) fail('lookup result is not an object');
    if (v.Data === undefined) return;
    if (!Array.isArray(v.Data)) fail('Data is not an array');
    for (const e of v.Data) {
      if (e === null) continue;
      if (!isPlain(e)) fail('lookup entry is not an object');
      optStr(e, idMember, 'entry');
      if (e.PlatformId !== null) optStr(e, 'PlatformId', 'entry');
    }
  };
}

const OP_LIST: Op[] = [
  {
    name: 'deleteMasterPlayerAccount', validate: row('DeleteMasterPlayerAccount'), check: (v, fromClient) => {
      if (!isPlain(v)) fail('not an object');
      optStr(v, 'JobReceiptId', 'data');
      if (fromClient || v.TitleIds !== undefined) strArray(v.TitleIds, 'TitleIds');
    },
  },
  {
    name: 'getPlayedTitleList', validate: row('GetPlayedTitleList'), check: (v, fromClient) => {
      if (!isPlain(v)) fail('not an object');
      if (fromClient || v.TitleIds !== undefined) strArray(v.TitleIds, 'TitleIds');
    },
  },
  {
    name: 'loginWithLauncher', validate: row('LoginWithLauncher'), check: (v) => {
      if (!isPlain(v)) fail('not an object');
      for (const k of ['PlatformId', 'SessionTicket', 'LastLoginTime']) optStr(v, k, 'data');
      if (v.EntityToken !== undefined) {
        if (!isPlain(v.EntityToken)) fail('EntityToken');
        for (const k of ['EntityToken', 'TokenExpiration']) optStr(v.EntityToken, k, 'EntityToken');
        if (v.EntityToken.Entity !== undefined) entity(v.EntityToken.Entity, 'EntityToken.Entity');
      }
      const p = v.InfoResultPayload;
      if (p !== undefined) {
        if (!isPlain(p)) fail('InfoResultPayload');
        for (const k of ['UserVirtualCurrency', 'UserData', 'UserVirtualCurrencyRechargeTimes', 'AccountInfo', 'PlayerProfile']) {
          if (p[k] !== undefined && !isPlain(p[k])) fail(`InfoResultPayload.${k} is not a plain object`);
        }
        for (const n of Object.values((p.UserVirtualCurrency ?? {}) as object)) if (typeof n !== 'number') fail('currency is not a number');
        for (const d of Object.values((p.UserData ?? {}) as object)) if (!isPlain(d)) fail('UserData entry');
      }
      const t = v.TreatmentAssignment;
      if (t !== undefined) {
        if (!isPlain(t)) fail('TreatmentAssignment');
        if (t.Variants !== undefined) strArray(t.Variants, 'Variants');
        if (t.Variables !== undefined && !(Array.isArray(t.Variables) && t.Variables.every((x) => isPlain(x) && isStr(x.Name) && (x.Value === undefined || isStr(x.Value))))) fail('Variables');
      }
    },
  },
  {
    name: 'entityToken', validate: row('GetEntityToken'), check: (v) => {
      if (!isPlain(v)) fail('not an object');
      optStr(v, 'EntityToken', 'data');
      if (v.TokenExpiration !== undefined && (!isStr(v.TokenExpiration) || Number.isNaN(Date.parse(v.TokenExpiration as string)))) fail('TokenExpiration');
      if (v.Entity !== undefined) entity(v.Entity, 'Entity');
    },
  },
  {
    name: 'handheldStore', validate: row('GetHandheldStore'), check: (v, fromClient = false) => {
      if (!isPlain(v) || typeof v.Created !== 'boolean') fail('Created');
      optStr(v, 'ApplicationID', 'data');
      for (const k of ['Environments', 'SubscriptionEnvironments', 'SecondarySubscriptionEnvironments']) environments(v[k], k, fromClient);
    },
  },
  { name: 'empty', validate: row('DeleteMobileStore'), check: (v) => { if (!isPlain(v)) fail('a delete\'s answer is not an object'); } },
  { name: 'lookupConsoleLive', validate: row('GetPlatformIDsFromConsoleLiveIDs'), check: lookupCheck('ConsoleLiveAccountId') },
  { name: 'lookupStorefront', validate: row('GetPlatformIDsFromStorefrontNames'), check: lookupCheck('StorefrontName') },
];

/** The operations, printed by name in counterexamples. */
export const OPS: Op[] = OP_LIST.map((o) => ({ ...o, [fc.toStringMethod]: () => o.name }));

/** A copy of `v` with the node at position `pick` (in a depth-first walk) replaced by `by`, or removed. */
function mutate(v: unknown, pick: number, by: unknown, remove: boolean): unknown {
  let n = 0;
  const walk = (x: unknown): unknown => {
    if (n++ === pick) return by;
    if (Array.isArray(x)) return x.map(walk);
    if (x !== null && typeof x === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(x)) {
        if (remove && n === pick) {
          n++;
          continue;
        }
        Object.defineProperty(out, k, { value: walk(item), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    return x;
  };
  return walk(v);
}

const statusCode = fc.oneof(fc.constantFrom(200, 200, 200, 201, 204, 302, 400, 401, 403, 404, 408, 409, 429, 500, 502, 503, 504), fc.integer({ min: 100, max: 999 }));

function envelopeFor(sample: string): fc.Arbitrary<string> {
  return fc.tuple(
    fc.array(fc.tuple(fc.nat({ max: 60 }), jsonish, fc.boolean()), { minLength: 1, maxLength: 3 }),
    fc.oneof(fc.constant(200), jsonish, statusCode),
    fc.boolean(),
  ).map(([mutations, code, withErrorCode]) => {
    let data = SAMPLES[sample];
    for (const [pick, by, remove] of mutations) data = mutate(data, pick, by, remove);
    const body: Record<string, unknown> = { code, status: 'OK', data };
    if (withErrorCode) body.errorCode = 1000;
    return JSON.stringify(body);
  });
}

const anyEnvelope: fc.Arbitrary<string> = fc.record(
  {
    code: fc.oneof(statusCode, jsonish), status: jsonish, data: jsonish, error: jsonish, errorCode: fc.oneof(fc.integer({ min: 0, max: 20000 }), jsonish),
    errorMessage: jsonish, errorDetails: fc.oneof(jsonish, fc.dictionary(fc.string(), fc.array(fc.string(), { maxLength: 4 }), { maxKeys: 8 })),
    retryAfterSeconds: jsonish,
  },
  { requiredKeys: [] },
).map((o) => JSON.stringify(o));

const nesting: fc.Arbitrary<string> = fc.tuple(fc.integer({ min: 1, max: 150_000 }), fc.constantFrom('[', '{"data":', '{"errorDetails":', '{"Data":['), fc.boolean())
  .map(([depth, open, closeIt]) => {
    const close = open === '[' ? ']' : open === '{"Data":[' ? ']}' : '}';
    return `{"code":200,"data":${open.repeat(depth)}1${closeIt ? close.repeat(depth) : ''}}`;
  });

const hugeArray: fc.Arbitrary<string> = fc.tuple(fc.integer({ min: 1000, max: 50_000 }), fc.constantFrom('null', '"F71AC"', '{}', '[]', '{"StorefrontName":"a","PlatformId":"9437A5ADDAE3012D"}'), fc.constantFrom('Data', 'TitleIds', 'Environments', 'Variants'))
  .map(([n, item, member]) => `{"code":200,"data":{"JobReceiptId":"j","${member}":[${`${item},`.repeat(n - 1)}${item}]}}`);

const hugeErrorDetails: fc.Arbitrary<string> = fc.tuple(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 1000 }))
  .map(([fields, len]) => JSON.stringify({
    code: 400, errorCode: 1000, error: 'E'.repeat(len), errorMessage: 'm'.repeat(len),
    errorDetails: Object.fromEntries(Array.from({ length: fields }, (_, i) => [`f${i}${'x'.repeat(len % 97)}`, Array.from({ length: 3 }, () => 'd'.repeat(len))])),
  }));

const HTML = [
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>',
  '<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>',
  '<?xml version="1.0"?><error>Access denied</error>',
  '   \n<html>',
];
const htmlPage: fc.Arbitrary<string> = fc.tuple(fc.constantFrom(...HTML), fc.string()).map(([h, s]) => h + s);

const specialKeys: fc.Arbitrary<string> = fc.constantFrom(
  '{"code":200,"data":{"JobReceiptId":"x","__proto__":{"TitleIds":5}}}',
  '{"code":200,"data":{"__proto__":{"TitleIds":[1]}}}',
  '{"code":200,"data":{"Data":[],"__proto__":{"Data":7}}}',
  '{"code":200,"data":{"EntityToken":"t","TokenExpiration":"2026-01-01T00:00:00Z","Entity":{"Id":"x","Type":"title"},"__proto__":{"x":1}}}',
  '{"code":200,"data":{"InfoResultPayload":{"UserData":{"__proto__":{"Value":"v"}},"UserVirtualCurrency":{"__proto__":{"a":"b"}}}}}',
  '{"code":200,"data":{"TreatmentAssignment":{"__proto__":{"Variants":3}}}}',
  '{"code":200,"data":{"Created":true,"Environments":[{"__proto__":{"ClientSecret":"s"},"ClientID":"c"}]}}',
  '{"code":400,"errorCode":1000,"errorDetails":{"__proto__":["a"],"constructor":["b"]}}',
  '{"__proto__":{"code":200},"data":{}}',
  '{"code":200,"data":{"constructor":{"prototype":{"polluted":1}},"TitleIds":[]}}',
);

/** Any JSON-ish text, possibly cut off at some point. */
const jsonText: fc.Arbitrary<string> = fc.oneof(anyEnvelope, ...Object.keys(SAMPLES).map(envelopeFor));
const truncated: fc.Arbitrary<string> = fc.tuple(jsonText, fc.double({ min: 0, max: 1, noNaN: true })).map(([t, f]) => t.slice(0, Math.floor(t.length * f)));

/** Bytes that are not valid UTF-8, alone or spliced into an envelope. */
export const invalidUtf8: fc.Arbitrary<Buffer> = fc.oneof(
  fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
  fc.tuple(jsonText, fc.nat(), fc.constantFrom([0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc0, 0xaf], [0xe2, 0x82]))
    .map(([t, at, bad]) => {
      const b = Buffer.from(t, 'utf8');
      const i = b.length === 0 ? 0 : at % b.length;
      return Buffer.concat([b.subarray(0, i), Buffer.from(bad), b.subarray(i)]);
    }),
);

export type BodyKind = 'json' | 'envelope' | 'truncated' | 'nesting' | 'huge' | 'details' | 'html' | 'utf8' | 'keys' | 'text';

const hostileBodies: fc.Arbitrary<{ kind: BodyKind; bytes: Buffer }> = fc.oneof(
  { arbitrary: anyEnvelope.map((s) => ({ kind: 'json' as const, bytes: Buffer.from(s) })), weight: 3 },
  { arbitrary: fc.oneof(...Object.keys(SAMPLES).map(envelopeFor)).map((s) => ({ kind: 'envelope' as const, bytes: Buffer.from(s) })), weight: 6 },
  { arbitrary: truncated.map((s) => ({ kind: 'truncated' as const, bytes: Buffer.from(s) })), weight: 2 },
  { arbitrary: nesting.map((s) => ({ kind: 'nesting' as const, bytes: Buffer.from(s) })), weight: 1 },
  { arbitrary: hugeArray.map((s) => ({ kind: 'huge' as const, bytes: Buffer.from(s) })), weight: 1 },
  { arbitrary: hugeErrorDetails.map((s) => ({ kind: 'details' as const, bytes: Buffer.from(s) })), weight: 1 },
  { arbitrary: htmlPage.map((s) => ({ kind: 'html' as const, bytes: Buffer.from(s) })), weight: 1 },
  { arbitrary: invalidUtf8.map((b) => ({ kind: 'utf8' as const, bytes: b })), weight: 2 },
  { arbitrary: specialKeys.map((s) => ({ kind: 'keys' as const, bytes: Buffer.from(s) })), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary' }).map((s) => ({ kind: 'text' as const, bytes: Buffer.from(s) })), weight: 1 },
);

/** One hostile answer body (bytes), tagged with how it was made; printed short in counterexamples. */
export const hostileBody: fc.Arbitrary<HostileBody> = hostileBodies.map((b) => ({
  ...b,
  [fc.toStringMethod]: () => `${b.kind}:${JSON.stringify(b.bytes.length > 300 ? `${b.bytes.toString('latin1', 0, 300)}…(${b.bytes.length} bytes)` : b.bytes.toString('latin1'))}`,
}));

export interface HostileBody {
  kind: BodyKind;
  bytes: Buffer;
}

export const httpStatus = statusCode;
export const retryAfterHeader: fc.Arbitrary<string | undefined> = fc.option(
  fc.oneof(fc.constantFrom('0', '1', '120', '-5', '1e9', 'Wed, 21 Oct 2015 07:28:00 GMT', 'garbage', ''), fc.string({ maxLength: 30 })),
);
