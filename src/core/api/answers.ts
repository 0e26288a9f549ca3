// What the client does to an answer after the row's schema has checked it, and to a failure before
// it leaves the client: the product's own reading of the service's data, one function each.
import { MAX_MESSAGE, maskSecrets, redactText } from '../redact';
import { parseServiceTime } from '../time';
import type { LookupEntry } from './bulk';
import { NoTokenError, ShapeError } from './envelope';
import { withChanges, type PlatformError } from './errors';
import type { ResultOf } from './operations';
import type { EntityTokenResult, HandheldStoreConfig } from './types';

/** errorDetails kept in a failure: fields, messages per field, characters per name or message. */
const MAX_DETAIL_FIELDS = 50;
const MAX_DETAIL_CHARS = 1000;

/** What the service sends that the product never passes on (the HandheldStore environments' ClientSecret). */
export function withoutClientSecret(config: HandheldStoreConfig): HandheldStoreConfig {
  const out: HandheldStoreConfig = { ...config };
  for (const k of ['Environments', 'SecondarySubscriptionEnvironments', 'SubscriptionEnvironments'] as const) {
    if (config[k] !== undefined) out[k] = config[k].map(({ ClientSecret: _omitted, ...rest }) => rest);
  }
  return out;
}

/** A lookup answer's entries: the identifier each echoes (bulk.ts matches them back to the inputs) and its PlatformId or null. */
export function lookupEntries(data: readonly (Record<string, string | null | undefined> | null)[] | undefined, idMember: string): (LookupEntry | null)[] {
  // No Data: the service linked none of them.
  return (data ?? []).map((e) => (e === null ? null : { id: e[idMember] ?? undefined, platformId: e.PlatformId ?? null }));
}

/** A GetEntityToken answer the product can use: it carries a token, and TokenExpiration (when given) is a date. */
export function usableToken(r: ResultOf<'GetEntityToken'>): EntityTokenResult {
  if (r.EntityToken === undefined || r.EntityToken.length === 0) throw new NoTokenError();
  if (r.TokenExpiration !== undefined && Number.isNaN(parseServiceTime(r.TokenExpiration))) {
    throw new ShapeError('data.TokenExpiration is not a date');
  }
  return { ...r, EntityToken: r.EntityToken };
}

/** `e` with every secret masked out of its texts, service strings clipped before the scan (never through a secret). */
export function redactError(e: PlatformError, secrets: readonly string[]): PlatformError {
  const details = e.errorDetails === undefined ? undefined
    : Object.fromEntries(Object.entries(e.errorDetails).slice(0, MAX_DETAIL_FIELDS)
      .map(([k, v]) => [redactText(k, secrets, MAX_DETAIL_CHARS), v.slice(0, MAX_DETAIL_FIELDS).map((m) => redactText(m, secrets, MAX_DETAIL_CHARS))]));
  // The request's own path (ours, from the endpoint setting) is shown as it is, known secrets only
  // masked, wherever it appears (our 404 title, the service's echo of it); the rest is service text.
  const message = e.path !== undefined && e.path.length > 0 && e.message.includes(e.path)
    ? e.message.split(e.path).map((part) => redactText(part, secrets, MAX_MESSAGE)).join(maskSecrets(e.path, secrets))
    : redactText(e.message, secrets, MAX_MESSAGE);
  return withChanges(e, {
    message,
    errorMessage: e.errorMessage === undefined ? undefined : redactText(e.errorMessage, secrets, MAX_MESSAGE),
    error: e.error === undefined ? undefined : redactText(e.error, secrets, MAX_MESSAGE),
    errorDetails: details,
  });
}
