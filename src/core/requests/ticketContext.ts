// Where each identifier of a ticket was found, and whether the ticket says it is the requester's
// own: New Data Request… shows each with its line and checks only those on the From line or in a
// sentence the person writes about themselves ("my Storefront name is ana_k"). A colleague's
// e-mail in an agent's note, a CC line or a quoted thread stays unchecked.
import type { Identifier, IdentifierKind } from './types';

/** The identifier kinds in the UI's words (the identifiers file keeps its `kind:` prefixes). */
export const KIND_LABELS: Record<IdentifierKind, string> = {
  platformid: 'PlatformId',
  email: 'E-mail',
  storefront: 'Storefront name',
  consolelive: 'ConsoleLive ID',
  username: 'Username',
  displayname: 'Display name',
};

/** "E-mail: ana@example.com", "ConsoleLive ID: 2535… (RETAIL)". */
export function identifierLabel(x: Identifier): string {
  return `${KIND_LABELS[x.kind]}: ${x.value}${x.sandbox ? ` (${x.sandbox})` : ''}`;
}

export type RequesterReason = 'from' | 'first person';

export interface TicketContext {
  /** 1-based line of the ticket the identifier is on. */
  line: number;
  /** That line, trimmed. */
  text: string;
  /** Why the ticket says the identifier is the requester's own; undefined when it does not. */
  requester?: RequesterReason;
}

// The sender's header; a Reply-To is the sender's too. CC, To and forwarded headers are not.
const FROM_RE = /^\s*(?:from|reply-to|requester|sender)\s*:/i;
// A note or a quote of someone else: never the requester's own words.
const OTHERS_RE = /^\s*(?:>|(?:agent|internal|staff|support|private)\s*notes?\b|notes?\s*:|cc\s*:|bcc\s*:|to\s*:|forwarded\b|-{2,}\s*(?:original|forwarded))/i;

/** The sentence of `line` around `at` (split at . ! ? followed by a space). */
function sentenceAt(line: string, at: number): string {
  let start = 0;
  for (const m of line.matchAll(/[.!?](?=\s)/g)) {
    const end = (m.index ?? 0) + 1;
    if (end <= at) start = end;
    else return line.slice(start, end);
  }
  return line.slice(start);
}

/** Where `index` of `text` is, and whether the ticket says what is there is the requester's own. */
export function ticketContext(text: string, index: number): TicketContext {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  const nl = text.indexOf('\n', index);
  const raw = text.slice(lineStart, nl < 0 ? text.length : nl).replace(/\r$/, '');
  const line = text.slice(0, lineStart).split('\n').length;
  const context: TicketContext = { line, text: raw.trim() };
  if (OTHERS_RE.test(raw)) return context;
  if (FROM_RE.test(raw)) return { ...context, requester: 'from' };
  // "I" only in capitals: "i" is rarely the pronoun in a ticket, often a stray letter.
  const sentence = sentenceAt(raw, index - lineStart);
  const firstPerson = /\bI(?:'m|'ve|'d)?\b/.test(sentence) || /\b(?:me|my|mine|myself)\b/i.test(sentence);
  return firstPerson ? { ...context, requester: 'first person' } : context;
}
