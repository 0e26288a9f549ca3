// The evidence as a readable Markdown document, rendered from the chained entries alone (so
// verify-evidence can render it again and compare). Every value is made safe for Markdown: control
// and bidi characters escaped, Markdown's own characters backslashed, clipped.
import { escapeUnsafe } from '../serviceText';
import type { Evidence, EvidenceEntry, Pii } from './evidence';

// Characters that start emphasis, code, links, HTML or break a table cell, wherever they stand.
const MD_RE = /[\\`*_[\]<>|~]/g;
/** Text for Markdown: one line, inert. */
export function md(v: unknown, max = 300): string {
  const s = String(v ?? '');
  const clipped = s.length > max ? `${s.slice(0, max)}…` : s;
  return escapeUnsafe(clipped).replace(MD_RE, (c) => `\\${c}`);
}

const who = (p: unknown): string => {
  if (p === null || p === undefined) return 'nothing';
  const x = p as Pii;
  return x.value !== undefined ? `\`${escapeUnsafe(x.value.slice(0, 300)).replace(/`/g, "'").replace(/\|/g, '\\|')}\`` : `\\[hashed ${x.pii.slice(0, 12)}\\]`;
};
const ref = (v: unknown): string => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? md(x) : who(x))).join('') : md(v));
const operator = (v: unknown): string => {
  const o = v as { name?: unknown; fingerprint?: unknown } | undefined;
  return `${md(o?.name, 100)} (${md(o?.fingerprint, 100)})`;
};
const ident = (v: unknown): string => {
  const x = v as { kind: string; id: Pii };
  return `${md(x.kind)} ${who(x.id)}`;
};

function line(e: EvidenceEntry): string {
  const f = e as Record<string, unknown>;
  switch (e.type) {
    case 'request': return `request ${md(f.requestId)}, ticket ${ref(f.reference)}: received ${md(f.received)}, due ${md(f.due)} (${md(f.dueDays)} days); asked: ${md((f.asks as string[]).join(', '))}; titles ${md((f.titles as string[]).join(', '))}; identifiers: ${(f.identifiers as unknown[]).map(ident).join('; ')}`;
    case 'title-skipped': return `title ${md(f.titleId)} not asked: ${md(f.reason)}`;
    case 'call': return `${md(f.operation)} with title ${md(f.titleId)}${f.identifiers !== undefined ? ` for ${(f.identifiers as unknown[]).map(ident).join('; ')}` : ''}${f.platformId !== undefined ? ` for ${who(f.platformId)}` : ''}: ${md(f.outcome)}`;
    case 'finding': return `${ident(f.identifier)} in title ${md(f.titleId)}: ${f.platformId === null ? (f.error !== undefined ? `not resolved (${md(f.error)})` : 'found nothing') : `found ${who(f.platformId)}`}`;
    case 'account': return `account ${who(f.platformId)}: plays ${md((f.titleIds as string[]).join(', ') || '(no titles reported)')}; found in ${md((f.foundIn as string[]).join(', '))}; actions sent with title ${md(f.sentWith)}${f.error !== undefined ? ` (${md(f.error)})` : ''}`;
    case 'account-gone': return `account ${who(f.platformId)}: AccountNotFound (already gone, nothing to do)`;
    case 'sent': return `sent ${md(f.operation)} for ${who(f.platformId)} with title ${md(f.titleId)}`;
    case 'outcome': return `${md(f.operation)} for ${who(f.platformId)}: ${md(f.outcome)}${f.jobReceiptId !== undefined ? `, JobReceiptId ${md(f.jobReceiptId)}` : ''}${f.error !== undefined ? ` (${md(f.error)})` : ''}`;
    case 'verified': return `verified with ${md(f.operation)} for ${who(f.platformId)}: ${md(f.outcome)}`;
    case 'export-link': return `export of ${who(f.platformId)} (JobReceiptId ${md(f.jobReceiptId)}) completed: download link ${md(f.by === 'event' ? 'from the player_data_exported event' : 'recorded from the e-mail')}, at ${md(f.linkOrigin)}, SHA-256 ${md(f.linkSha256)} (the link itself is not kept)`;
    case 'closed': return `closed: ${(f.actions as { kind: string; platformId: Pii; status: string; completedBy: string | null }[]).map((a) => `${md(a.kind)} of ${who(a.platformId)} ${md(a.status)}${a.completedBy !== null ? ` (${md(a.completedBy)})` : ''}`).join('; ') || 'no account was found, nothing to act on'}`;
    case 'withdrawn': return `withdrawn: ${md(f.reason)}; nothing more was sent`;
    default: return md(e.type);
  }
}

export function evidenceMarkdown(ev: Evidence): string {
  const first = ev.entries[0] as Record<string, unknown> | undefined;
  const out = [
    `# Data request ${md(ev.requestId)}: evidence`,
    '',
    `Ticket ${ref(first?.reference)}. Every entry below names the operator who caused it and carries the SHA-256 of the entry before it; the chain head is signed by the operator who closed the request. \`platform-explorer request verify-evidence\` checks the chain and the signature in evidence.json and that this document matches it.`,
    '',
    '| # | time (UTC) | operator | entry | SHA-256 |',
    '|---|---|---|---|---|',
    ...ev.entries.map((e) => `| ${e.seq} | ${md(e.at)} | ${operator(e.operator)} | ${line(e)} | \`${e.hash}\` |`),
    '',
    `Chain head: \`${ev.head}\``,
    '',
    `Signed by ${operator(ev.signer)} with Ed25519; public key:`,
    '',
    '```',
    ...String(ev.signer?.publicKey ?? '').replace(/[^A-Za-z0-9+/=\n -]/g, '').trim().split('\n'),
    '```',
    '',
  ];
  return out.join('\n');
}
