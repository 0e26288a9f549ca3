// Admin/GetUserAccountInfo finds one account by exactly one identifier (docs/service-behaviour.md,
// "Data-subject requests"): the one check of that rule, for the client and the emulator alike.
import { validatePlatformId } from '../ids';

/** The identifiers GetUserAccountInfo takes, exactly one a request. */
export const ACCOUNT_LOOKUP_FIELDS = ['PlatformId', 'Email', 'Username', 'TitleDisplayName'] as const;
export type AccountLookupField = (typeof ACCOUNT_LOOKUP_FIELDS)[number];
export type AccountLookup = Partial<Record<AccountLookupField, unknown>>;

const LIST = 'PlatformId, Email, Username or TitleDisplayName';

/**
 * The one field a lookup uses, or what is wrong (naming the fields) and how to fix it.
 * `checkPlatformIdFormat: false` (the emulator) lets a malformed PlatformId through to "not found".
 */
export function checkAccountLookup(r: AccountLookup | null | undefined, checkPlatformIdFormat = true):
  { ok: true; field: AccountLookupField; value: string } | { ok: false; field: string; message: string; hint: string } {
  const given = ACCOUNT_LOOKUP_FIELDS.filter((f) => r?.[f] !== undefined && r[f] !== null);
  if (given.length === 0) {
    return { ok: false, field: 'RequestBody', message: `No identifier given: send exactly one of ${LIST}.`, hint: 'Give the one identifier to look the account up by.' };
  }
  if (given.length > 1) {
    return {
      ok: false, field: given.join(', '),
      message: `Several identifiers given (${given.join(' and ')}): send exactly one of ${LIST}.`,
      hint: 'Look up by one identifier at a time; each answers for one account.',
    };
  }
  const field = given[0];
  const value = r![field];
  if (typeof value !== 'string' || value.trim().length === 0) {
    return { ok: false, field, message: `${field} is empty or not text.`, hint: `Enter the ${field} to look up.` };
  }
  if (field === 'PlatformId' && checkPlatformIdFormat) {
    const err = validatePlatformId(value);
    if (err !== undefined) return { ok: false, field, message: err, hint: 'Copy the PlatformId exactly as the service shows it.' };
  }
  return { ok: true, field, value };
}
