// Where a request lives, as the workflow sees it (issue 33): its sealed state, the journals of its
// actions and its evidence. Two stores: the folder of today (store.ts, the default, unchanged on
// disk) and the team store's rows in PostgreSQL (core/store/requests.ts), where each send is
// claimed in the database before it goes out. The workflow (workflow.ts, actions.ts, verify.ts,
// evidenceSteps.ts) reaches a request only through this interface.
import type { AnchorStore, BatchRecord, JournalRecord, RunJournal } from '../deletion';
import { RequestError, type ActionKind, type DataRequest, type RequestAuth } from './types';

/** A journal of one kind of action sent with one title's key, open for a run or a check. */
export interface RequestJournal extends RunJournal {
  close(): Promise<void>;
  /** Reads what was recorded again (the team store: other runs, and this one's rows). */
  reload?(): Promise<void>;
}

/** How a request's journals are authenticated: each title's key, and the anchors outside the store. */
export interface JournalAccess {
  key: (titleId: string) => Promise<string | undefined>;
  anchors: AnchorStore;
  noAnchor?: boolean;
}

export interface JournalName {
  name: string;
  kind: ActionKind;
  titleId: string;
}

export interface RequestStorage {
  /** Where the requests are, for messages: a folder, or the team store's host:port/database. */
  readonly dir: string;
  /** How state is sealed and checked (none: requests can be shown, not changed). */
  readonly auth: RequestAuth | undefined;
  create(r: DataRequest): Promise<void>;
  /** The state as it is (not authenticated): for showing only. */
  load(id: string): Promise<DataRequest>;
  /** The state checked against its seal: what every step that acts reads. */
  loadChecked(id: string): Promise<DataRequest>;
  save(r: DataRequest): Promise<void>;
  list(): Promise<{ requests: DataRequest[]; problems: string[] }>;
  /** One step at a time changes a request (the file store); the team store's saves are checked instead. */
  lock(id: string): Promise<() => Promise<void>>;
  journalNames(id: string): Promise<JournalName[]>;
  openJournal(id: string, name: string, access: JournalAccess): Promise<RequestJournal>;
  /** Creates the journal `kind-TITLE[-n]` of `batch`; its name (a run racing for the same name joins that journal). */
  createJournal(id: string, kind: ActionKind, titleId: string, batch: BatchRecord, access: JournalAccess): Promise<string>;
  /** A journal's batch and records, authenticated, for the evidence; undefined when it holds none. */
  readJournal(id: string, name: string, access: JournalAccess): Promise<{ batch: BatchRecord; records: readonly JournalRecord[] } | undefined>;
  /** Retention: the journals' personal values removed (the evidence holds every call). */
  removeJournals(id: string): Promise<void>;
  writeEvidence(id: string, json: string, markdown: string): Promise<void>;
  readEvidence(id: string, which: 'json' | 'md'): Promise<string | undefined>;
  /** Where the evidence is, for messages and the evidence anchor. */
  evidencePath(id: string, which: 'json' | 'md'): string;
}

/** A save refused because another run saved the same request first: the caller merges and saves again. */
export class SaveConflict extends RequestError {}
