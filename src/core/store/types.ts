// The team store's shapes: who acts (the operator), what a deletion run needs from a store (the
// run's journal interface), and the store's own error. The file journal (core/deletion/journal.ts)
// is the default store; PostgreSQL (postgres.ts) is the shared one.
import { JournalError } from '../deletion/records';
import type { RunJournal } from '../deletion/run';

/** Who acted: the operator key's fingerprint and display name (core/operator.ts). */
export type { OperatorRef as Operator } from '../operator';

/** A batch as a store keeps it: what a deletion run reads, claims and appends, and its release. */
export interface BatchJournal extends RunJournal {
  close(): Promise<void>;
}

export const STORE_KINDS = ['file', 'postgres'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** A team store that cannot be used, or stopped answering: the message says what to do. */
export class StoreError extends JournalError {}
