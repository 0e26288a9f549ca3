// Identifiers a ticket names by their label ("my Storefront name is ana_k", "Username: ana.k",
// "ConsoleLive ID: 2535411111111111"): found so the editor can offer them with the e-mails and
// PlatformIds of the text (identifiers.ts extractIdentifiers), each checked as its kind requires.
import type { IdentifierKind } from './types';

/** How a ticket writes each label; the value follows "is", ":" or "=". */
const LABELS: readonly [IdentifierKind, string][] = [
  ['storefront', 'storefront\\s*(?:user\\s*)?(?:name|id|account)?'],
  ['consolelive', 'console\\s*live\\s*(?:id|xuid|account)'],
  ['username', 'user\\s*name'],
  ['displayname', '(?:title\\s*)?display\\s*name'],
];

// A label, an optional "is"/":"/"=", then the value up to a space or punctuation that ends it.
const PATTERNS = LABELS.map(([kind, label]) => [kind, new RegExp(`\\b${label}s?\\b\\s*(?:is\\b|:|=)\\s*["'“‘]?([^\\s,;"'“”‘’()<>\\[\\]]{1,100})`, 'giu')] as const);

/** The labelled identifiers of `text` with where each value starts; trailing . ! ? dropped. Unchecked: the caller checks each. */
export function labelledIdentifiers(text: string): { kind: IdentifierKind; value: string; index: number }[] {
  const out: { kind: IdentifierKind; value: string; index: number }[] = [];
  for (const [kind, re] of PATTERNS) {
    for (const m of text.matchAll(re)) {
      const value = m[1].replace(/[.!?:]+$/, '');
      // "my username is" without a value, or a label word followed by another label word, is no identifier.
      if (value.length === 0 || /^(is|are|was|and|or|the|my|a|an)$/i.test(value)) continue;
      out.push({ kind, value, index: (m.index ?? 0) + m[0].length - m[1].length });
    }
  }
  return out;
}
