// A request's identifiers: the identifiers file (`kind:value` a line), checked line by line with
// errors naming the line and the fix, and identifiers found in a ticket's free text (e-mails and
// PlatformIds) to offer to the user.
import { findPlatformIds, isPlatformId, quoteForMessage } from '../ids';
import { formatError } from '../deletion/input';
import { labelledIdentifiers } from './ticketLabels';
import { IDENTIFIER_KINDS, RequestError, type Identifier, type IdentifierKind } from './types';

const EMAIL_RE = /^[^\s@<>()[\]\\,;:"]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
const NAME_MAX = 100;
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/;

/** Why `value` is not an identifier of `kind`, or undefined. */
export function identifierProblem(kind: IdentifierKind, value: string): string | undefined {
  switch (kind) {
    case 'platformid':
      return isPlatformId(value) ? undefined : `"${quoteForMessage(value)}" is not a PlatformId: use 14 to 16 hex characters (0-9, A-F).`;
    case 'email':
      return value.length <= 254 && EMAIL_RE.test(value) ? undefined : `"${quoteForMessage(value)}" is not an e-mail address: write it as name@example.com.`;
    case 'storefront':
      return formatError('storefront', value);
    case 'consolelive':
      return formatError('consolelive', value);
    case 'username':
    case 'displayname':
      if (value.length > NAME_MAX) return `"${quoteForMessage(value)}" is longer than ${NAME_MAX} characters, too long for a ${kind === 'username' ? 'username' : 'title display name'}.`;
      return CONTROL_RE.test(value) ? `"${quoteForMessage(value)}" holds control or invisible characters; remove them.` : undefined;
  }
}

/** The key two identifiers are the same by (e-mails ignore case). */
export function identifierKey(x: Identifier): string {
  const v = x.kind === 'email' || x.kind === 'platformid' ? x.value.toLowerCase() : x.value;
  return `${x.kind}:${v}${x.sandbox !== undefined ? `@${x.sandbox}` : ''}`;
}

/**
 * The identifiers file: one `kind:value` a line (kinds: platformid, email, username, displayname,
 * storefront, consolelive); blank lines and lines starting with # are skipped. Every bad line is
 * reported at once, by its number, with the fix; nothing is returned unless all lines are good.
 */
export function parseIdentifiers(text: string, o: { sandbox?: string } = {}): Identifier[] {
  const out: Identifier[] = [];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  text.replace(/^\ufeff/, '').split(/\r\n|\r|\n/).forEach((raw, i) => {
    const line = raw.trim();
    const n = i + 1;
    if (line.length === 0 || line.startsWith('#')) return;
    const colon = line.indexOf(':');
    const kind = (colon < 0 ? '' : line.slice(0, colon).trim().toLowerCase()) as IdentifierKind;
    if (!IDENTIFIER_KINDS.includes(kind)) {
      problems.push(`line ${n}: "${quoteForMessage(line)}" does not start with a kind; write kind:value with kind one of ${IDENTIFIER_KINDS.join(', ')} (e.g. email:ana@example.com).`);
      return;
    }
    const value = line.slice(colon + 1).trim();
    if (value.length === 0) {
      problems.push(`line ${n}: ${kind}: has no value; write ${kind}:VALUE or remove the line.`);
      return;
    }
    const bad = identifierProblem(kind, value);
    if (bad !== undefined) {
      problems.push(`line ${n}: ${bad}`);
      return;
    }
    const id: Identifier = { kind, value: kind === 'platformid' ? value.toUpperCase() : value };
    if (kind === 'consolelive') id.sandbox = o.sandbox ?? 'RETAIL';
    const key = identifierKey(id);
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push(`line ${n}: the same identifier as line ${first}; remove one of them.`);
      return;
    }
    seen.set(key, n);
    out.push(id);
  });
  if (problems.length > 0) {
    const shown = problems.slice(0, 20);
    throw new RequestError(`The identifiers file has ${problems.length} bad line(s):\n  ${shown.join('\n  ')}${problems.length > shown.length ? `\n  ... and ${problems.length - shown.length} more` : ''}`);
  }
  if (out.length === 0) throw new RequestError('The identifiers file holds no identifier: write one kind:value a line (e.g. email:ana@example.com).');
  return out;
}

/** The identifiers as an identifiers file (the inverse of parseIdentifiers). */
export function identifiersText(ids: readonly Identifier[]): string {
  return ids.map((x) => `${x.kind}:${x.value}\n`).join('');
}

const EMAIL_IN_TEXT_RE = /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

/** Identifiers found in a ticket's free text, in order of first appearance (e-mails, PlatformIds, labelled names and IDs), to offer to the user. */
export function extractIdentifiers(text: string): (Identifier & { index: number })[] {
  const found: (Identifier & { index: number })[] = [];
  for (const m of text.matchAll(EMAIL_IN_TEXT_RE)) {
    if (identifierProblem('email', m[0]) === undefined) found.push({ kind: 'email', value: m[0], index: m.index });
  }
  for (const h of findPlatformIds(text)) found.push({ kind: 'platformid', value: h.id, index: h.index });
  // Named by a label ("my Storefront name is ana_k"), kept when valid for their kind.
  for (const x of labelledIdentifiers(text)) if (identifierProblem(x.kind, x.value) === undefined) found.push(x.kind === 'consolelive' ? { ...x, sandbox: 'RETAIL' } : x);
  found.sort((a, b) => a.index - b.index);
  const seen = new Set<string>();
  return found.filter((x) => {
    const k = identifierKey(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
