// A data request's outcomes in a compliance person's words, counted with correct plurals:
// "2 erasures sent", "1 export and 2 erasures sent", "1 export link". Activity, the summaries and
// the command line say the same thing the same way.
import type { ActionKind, IdentifierKind } from './types';

/** "1 export link", "2 export links", "0 erasures". */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

const KIND_WORDS: Record<ActionKind, [string, string]> = {
  export: ['export', 'exports'],
  events: ['events-only erasure', 'events-only erasures'],
  erasure: ['erasure', 'erasures'],
};

/** "1 export and 2 erasures sent", "nothing sent"; kinds with none are left out. */
export function sentWords(sent: Partial<Record<ActionKind, number>>): string {
  const parts = (Object.keys(KIND_WORDS) as ActionKind[]).filter((k) => (sent[k] ?? 0) > 0).map((k) => countOf(sent[k] ?? 0, ...KIND_WORDS[k]));
  if (parts.length === 0) return 'nothing sent';
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return `${list} sent`;
}

/** A ticket reference as a name in Activity: letters, digits and plain punctuation, 60 characters at most. */
export function referenceWords(reference: string): string {
  const plain = reference.replace(/[^\p{L}\p{N} ()\-_.,:#/']+/gu, ' ').replace(/\s+/g, ' ').trim();
  return plain.slice(0, 60).trim();
}

/** The Data Requests view's description: "1 overdue", "2 due this week", "1 overdue, 2 more due this week"; undefined when neither. */
export function dueSummary(overdue: number, dueThisWeekNotOverdue: number): string | undefined {
  if (overdue > 0 && dueThisWeekNotOverdue > 0) return `${overdue} overdue, ${dueThisWeekNotOverdue} more due this week`;
  if (overdue > 0) return `${overdue} overdue`;
  return dueThisWeekNotOverdue > 0 ? `${dueThisWeekNotOverdue} due this week` : undefined;
}

/**
 * Why an identifier that found nothing may still be someone's: what the service matches, in its
 * documented terms (api-facts). A TitleDisplayName lookup on a title that allows non-unique display
 * names always answers AccountNotFound, and Email matches the account's e-mail only.
 */
export const NOT_FOUND_WHY: Partial<Record<IdentifierKind, string>> = {
  displayname: 'not found by display name: a title that allows non-unique display names always answers AccountNotFound to this lookup, so it says nothing about the person',
  email: 'the service matches the account\'s e-mail, not contact e-mails',
};

/** Why a display-name lookup is not sent to a title said to allow non-unique display names. */
export const DISPLAY_NAME_SKIPPED = 'not looked up: this title allows non-unique display names, where the service always answers AccountNotFound to a display-name lookup';
