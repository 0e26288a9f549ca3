// Data-subject requests (issue 18), shared by the editor's Data Requests view and the command line.
//
// A request (types.ts DataRequest) is a folder of a RequestStore (store.ts): its state file, the
// deletion journals of its actions, and its evidence once closed. Its state is derived, never
// stored (model.ts requestState): received -> resolved -> actions-queued -> completed -> closed;
// isOverdue when past its due date and not closed.
//
// The workflow (workflow.ts), each step loading the request, holding its lock and saving it:
//   createRequest(store, NewRequest)              -> DataRequest (state received)
//   dryRun(store, id, services)                   -> DryRun: resolves once (every titled key asked,
//                                                   paced), plans one action per kind and master
//                                                   account; `accounts.length` is what --confirm takes
//   runActions(store, id, services, {confirm})    -> RunSummary: sends through the deletion journal
//                                                   (never twice, kill -9 safe); erasure waits for
//                                                   the account's export to complete
//   verifyRequest(store, id, services)            -> VerifySummary: erasures by AccountNotFound,
//                                                   exports by their player_data_exported event
//   recordExportLink(store, id, receipt, url)     -> the export's download link pasted from the e-mail
//   closeRequest(store, id, services, {hashIdentifiers?}) -> writes evidence.json and evidence.md
//   hashIdentifiers(store, id, services)          -> retention: personal identifiers replaced by their
//                                                   HMAC under the request's key (pseudonymised)
//   shredRequest(store, id, services)             -> the request's key destroyed (anonymised)
//   verifyEvidence(store, id, o)                  -> EvidenceCheck: chain, operator signature, MACs, anchors
// (evidenceSteps.ts; the operator and the key stores: core/operator.ts)
// `services` (RequestServices) gives a client per title with a key and the key for its journals.
// Errors a user can fix are RequestError (their message names the fix).
export * from './types';
export { parseIdentifiers, extractIdentifiers, identifierProblem, identifiersText } from './identifiers';
export { countOf, dueSummary, NOT_FOUND_WHY, sentWords, referenceWords } from './words';
export { KIND_LABELS, identifierLabel, ticketContext, type TicketContext, type RequesterReason } from './ticketContext';
export { DEFAULT_DUE_DAYS, dueDate, parseAsks, newRequest, requestState, isOverdue, daysLeft, isDueThisWeek, closeProblem, nextStep, type NewRequest } from './model';
export { RequestStore } from './store';
export type { RequestStorage, RequestJournal, JournalAccess, JournalName } from './storage';
export { emulatorEventReader } from './events';
export * from './workflow';
export { closeRequest, hashIdentifiers, shredRequest, verifyEvidence, verifyEvidenceFile, evidenceAnchorId, type VerifyOptions } from './evidenceSteps';
