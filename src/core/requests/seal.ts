// The state file's seal (issue 29): request.json authenticated as a deletion journal's lines are.
// Each save is one link of a chain: its MAC (core/deletion/records.ts, a key derived from one of the
// request's titles' secret keys, which the store never holds) covers the request's id, the save's
// number, the MAC of the save before it and the file's exact content; after each save the anchor
// (core/deletion/anchor.ts, outside the store: the CLI's state folder, the editor's storage) records
// how far the request got. A state file edited, planted or replaced by anything but the tool, or an
// older copy of it, is refused before anything is sent, naming the file; one with no anchor here is
// used only when the user says so (--no-anchor, the editor's modal).
import { resolve } from 'node:path';
import type { AnchorStore } from '../deletion/anchor';
import { macKey, macMatches, sealLine, type JournalRecord } from '../deletion/records';
import { RequestError, type DataRequest, type RequestAuth, type StateSeal } from './types';

export type { RequestAuth, StateSeal } from './types';


/** Thrown when a state file or journal has no anchor here and the user did not accept that. */
export class NoAnchorError extends RequestError {}

/** The MAC's domain: never a journal's batch ID (those have no space). */
const domain = (id: string): string => `request-state ${id}`;

const content = (r: DataRequest): string => {
  const { seal: _s, ...rest } = r;
  return JSON.stringify(rest);
};

async function keyOf(auth: RequestAuth, titleId: string, titles: readonly string[]): Promise<string | undefined> {
  const k = await auth.key(titleId, titles);
  return k === undefined || k.trim() === '' ? undefined : k;
}

/** `r` sealed as its next save: the text to write (the anchor is written after it, by `anchorSeal`). */
export async function sealState(r: DataRequest, auth: RequestAuth, path: string): Promise<string> {
  const before = r.seal;
  let titleId: string | undefined;
  for (const t of [...(before !== undefined ? [before.titleId] : []), ...r.titles]) {
    if (r.titles.includes(t) && (await keyOf(auth, t, r.titles)) !== undefined) {
      titleId = t;
      break;
    }
  }
  if (titleId === undefined) {
    throw new RequestError(`Request ${r.id}: no secret key of its titles (${r.titles.join(', ')}) is set here, and its state file ${path} is authenticated with one; nothing was written. Set a title's key (PLATFORM_SECRET_KEY_<TITLEID> for the command line) and try again.`);
  }
  const generation = (before?.generation ?? 0) + 1;
  const prev = before?.mac ?? '';
  const key = (await keyOf(auth, titleId, r.titles))!;
  const { mac } = sealLine(macKey(key), domain(r.id), generation, prev, JSON.parse(content(r)) as JournalRecord);
  r.seal = { titleId, generation, prev, mac, anchors: auth.anchors.where };
  return `${JSON.stringify(r, null, 2)}\n`;
}

/** Records the save just written as the request's anchor. */
export async function anchorSeal(r: DataRequest, auth: RequestAuth, path: string): Promise<void> {
  const s = r.seal!;
  await auth.anchors.set({ batchId: r.id, titleId: s.titleId, lines: s.generation, mac: s.mac, path: resolve(path), at: new Date().toISOString() });
}

const fix = 'Nothing was sent. Restore the file from your backup (or the copy this tool last wrote), and check who changed it.';

const isSeal = (s: unknown): s is StateSeal => {
  if (typeof s !== 'object' || s === null) return false;
  const v = s as Record<string, unknown>;
  return typeof v.titleId === 'string' && Number.isSafeInteger(v.generation) && (v.generation as number) >= 1 && typeof v.prev === 'string'
    && typeof v.mac === 'string' && /^[0-9a-f]{64}$/.test(v.mac) && typeof v.anchors === 'string';
};

/** Why the anchor is missing, where it can tell. */
function missingWhy(s: StateSeal, anchors: AnchorStore): string {
  if (resolve(s.anchors) !== resolve(anchors.where)) {
    return `it was last written with its anchors in ${s.anchors}, and this run keeps them in ${anchors.where}: another state folder (another HOME or XDG_STATE_HOME, sudo, the editor rather than the command line) or another machine`;
  }
  return `the anchors folder ${anchors.where} holds none for it: it was removed, or this is a restored copy or another machine's folder under the same path`;
}

/**
 * Checks a state file just read (its seal, then its anchor): throws RequestError naming the file and
 * the fix when it was not written by this tool with one of the request's titles' keys, is behind its
 * anchor, or has no anchor here and `auth.noAnchor` is not set.
 */
export async function checkSeal(r: DataRequest, auth: RequestAuth, path: string): Promise<void> {
  const s = r.seal;
  if (!isSeal(s)) {
    throw new RequestError(`Request ${r.id}: its state file ${path} carries no seal: it was not written by this version of Platform Explorer, or it was replaced. ${fix}`);
  }
  if (!r.titles.includes(s.titleId)) throw new RequestError(`Request ${r.id}: its state file ${path} is sealed with title ${s.titleId}, which is not one of its titles: it was changed. ${fix}`);
  const key = await keyOf(auth, s.titleId, r.titles);
  if (key === undefined) {
    throw new RequestError(`Request ${r.id}: its state file ${path} is authenticated with the secret key of title ${s.titleId}, which is not set here; nothing was sent. Set that title's key (PLATFORM_SECRET_KEY_${s.titleId} for the command line) and try again.`);
  }
  if (!macMatches(macKey(key), domain(r.id), s.generation, s.prev, content(r), s.mac)) {
    throw new RequestError(`Request ${r.id}: its state file ${path} was changed by something other than Platform Explorer (an edit, a planted or replaced file): its seal does not match its content. ${fix}`);
  }
  const anchor = await auth.anchors.get(r.id);
  if (anchor !== undefined && anchor.lines > s.generation) {
    throw new RequestError(`Request ${r.id}: its state file ${path} is an older copy: it holds save ${s.generation}, but this request reached save ${anchor.lines} here (${anchor.at}). Using it could send again what was sent since. ${fix}`);
  }
  if (anchor !== undefined && anchor.lines === s.generation && anchor.mac !== s.mac) {
    throw new RequestError(`Request ${r.id}: its state file ${path} is not the copy this machine last wrote (save ${s.generation} differs from the anchored one). ${fix}`);
  }
  // Ahead of the anchor by one save whose link is the anchored one: a kill between the file and the anchor.
  const follows = anchor !== undefined && anchor.mac === s.prev
    // Stryker disable next-line ConditionalExpression: equivalent: prev is covered by the checked MAC and is the MAC of save generation - 1, which equals the anchored save's MAC (its generation in the MAC's input) only when the anchor is that save
    && anchor.lines === s.generation - 1;
  if (anchor !== undefined && anchor.lines === s.generation) return;
  if (follows) return;
  const why = anchor === undefined
    ? `has no anchor here (${missingWhy(s, auth.anchors)})`
    : `went on past its anchor here (save ${anchor.lines}) without it (${missingWhy(s, auth.anchors)})`;
  const risk = `so it cannot be checked for being an older copy, and an older copy would send again what was sent since`;
  if (auth.noAnchor !== true) {
    throw new NoAnchorError(`Request ${r.id}: its state file ${path} ${why}, ${risk}. Nothing was sent. If this is the newest copy, run again with --no-anchor (the editor asks) to accept it; it is anchored here from then on.`);
  }
  auth.onNotice?.(`Request ${r.id}: its state file ${path} ${why}; used as it is (--no-anchor) and anchored here from now on.`);
}
