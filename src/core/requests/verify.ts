// Completion of a request's actions: an erasure when GetPlayedTitleList answers AccountNotFound
// (recorded in its journal), an export when its download link is recorded: from the service's
// player_data_exported event where events can be read, or pasted by the user from the e-mail.
import { ledgerFromJournal, verifyQueued } from '../deletion';
import { quoteForMessage } from '../ids';
import { shownReceiptId } from '../serviceText';
import { journalOptions, releaseWaiting, syncActions } from './actions';
import type { RequestStorage } from './storage';
import { RequestError, type DataRequest, type RequestServices } from './types';

export interface VerifySummary {
  /** Erasures found completed (AccountNotFound) in this pass. */
  erased: string[];
  /** Exports whose link was found in the service's events in this pass. */
  exported: string[];
  /** What could not be checked, with why. */
  errors: string[];
}

/** Checks every queued (or unknown) erasure and export once; the caller loads and saves the request. */
export async function verifyActions(store: RequestStorage, r: DataRequest, services: RequestServices): Promise<VerifySummary> {
  const out: VerifySummary = { erased: [], exported: [], errors: [] };
  for (const j of await store.journalNames(r.id)) {
    const journal = await store.openJournal(r.id, j.name, journalOptions(services));
    try {
      if (j.kind === 'erasure') {
        const client = services.client(j.titleId);
        if (client === undefined) out.errors.push(`erasures sent with title ${j.titleId}: no secret key for that title`);
        else {
          const res = await verifyQueued(client, ledgerFromJournal(journal.batch, journal.players()), (platformId, at) => journal.append({ type: 'verified', platformId, at }), { signal: services.signal });
          out.erased.push(...res.verified);
          out.errors.push(...res.errors.map((e) => `erasure of ${e.platformId}: ${e.error}`));
        }
      }
      await journal.reload?.();
      syncActions(r, [{ kind: j.kind, players: journal.players() }], journal.batch.titleId);
    } finally {
      await journal.close();
    }
  }
  const awaiting = r.actions.filter((a) => a.kind === 'export' && a.status === 'queued' && a.jobReceiptId !== undefined);
  if (awaiting.length > 0 && services.events !== undefined) {
    try {
      const events = await services.events('player_data_exported', { signal: services.signal });
      for (const a of awaiting) {
        const e = events.find((x) => x.JobReceiptId === a.jobReceiptId && typeof x.ExportDownloadUrl === 'string');
        if (e === undefined || linkProblem(e.ExportDownloadUrl!) !== undefined) continue;
        Object.assign(a, { status: 'completed', downloadUrl: e.ExportDownloadUrl, completedAt: new Date().toISOString(), completedBy: 'event' });
        out.exported.push(a.platformId);
      }
    } catch (e) {
      out.errors.push(`the service's events could not be read: ${(e as Error).message}`);
    }
  }
  releaseWaiting(r);
  return out;
}

/** Why `url` is not a download link to record, or undefined. Never quotes what was given: it may be the link itself, slightly off (a bearer link to the person's data). */
export function linkProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'What was given is not a link: paste the whole download link from the e-mail (https://...).';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'What was given is not an http(s) link: paste the download link from the e-mail.';
  if (url.length > 4000 || /[\s\u0000-\u001f\u007f-\u009f]/.test(url)) return 'The link is longer than 4000 characters or holds spaces or control characters: paste it exactly as the e-mail gives it.';
  return undefined;
}

/** Records an export's download link (pasted from the e-mail), which completes the export with that JobReceiptId. */
export function recordLink(r: DataRequest, receipt: string, url: string, now = new Date()): void {
  const bad = linkProblem(url);
  if (bad !== undefined) throw new RequestError(bad);
  const a = r.actions.find((x) => x.kind === 'export' && x.jobReceiptId !== undefined && x.jobReceiptId.toLowerCase() === receipt.trim().toLowerCase());
  if (a === undefined) {
    const open = r.actions.filter((x) => x.kind === 'export' && x.status === 'queued' && x.jobReceiptId !== undefined).map((x) => shownReceiptId(x.jobReceiptId));
    throw new RequestError(`No export of request ${r.id} has the JobReceiptId "${quoteForMessage(receipt)}"; ${open.length > 0 ? `exports awaiting a link: ${open.join(', ')}` : 'no export is awaiting a link'}.`);
  }
  if (a.status === 'completed') throw new RequestError(`The export with JobReceiptId ${shownReceiptId(a.jobReceiptId)} is already completed (its link recorded ${a.completedAt}); nothing was changed.`);
  Object.assign(a, { status: 'completed', downloadUrl: url, completedAt: now.toISOString(), completedBy: 'recorded' });
  delete a.error;
  releaseWaiting(r);
}
