// Each step of a request: load -> lock -> act -> save (workflow.ts, evidenceSteps.ts), and the
// record of who ran it (the evidence names each entry's operator from these).
import type { OperatorRef } from '../operator';
import { SaveConflict, type RequestStorage } from './storage';
import type { DataRequest } from './types';

/** Records who ran a step (the evidence names each entry's operator from these). */
export function noteStep(r: DataRequest, step: string, operator: OperatorRef | undefined, at: string): void {
  if (operator !== undefined) (r.steps ??= []).push({ at, step, operator: { fingerprint: operator.fingerprint, name: operator.name } });
}

/**
 * What a step that raced another run keeps of its own work on the newest state (the team store:
 * two runs may work one request at once; the journals say what was sent, so the actions are read
 * from them again): its steps, and what it learned that no journal records.
 */
export type Rebase = (latest: DataRequest, mine: DataRequest) => Promise<void>;

/** Steps `mine` recorded that `latest` lacks, added in time order. */
export function mergeSteps(latest: DataRequest, mine: DataRequest): void {
  const key = (s: NonNullable<DataRequest['steps']>[number]): string => `${s.at} ${s.step} ${s.operator.fingerprint}`;
  const have = new Set((latest.steps ?? []).map(key));
  for (const s of mine.steps ?? []) if (!have.has(key(s))) (latest.steps ??= []).push(s);
  latest.steps?.sort((a, b) => a.at.localeCompare(b.at));
}

/** Saves `r`; when another run saved first and the step can merge, merges into the newest state and saves that (bounded). */
async function saveMerged(store: RequestStorage, r: DataRequest, rebase: Rebase | undefined): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await store.save(r);
      return;
    } catch (e) {
      if (!(e instanceof SaveConflict) || rebase === undefined || attempt >= 8) throw e;
    }
    const latest = await store.loadChecked(r.id);
    mergeSteps(latest, r);
    await rebase(latest, r);
    Object.assign(r, latest);
  }
}

/** Runs `fn` on the request under its lock and saves what it changed. */
export async function withRequest<T>(store: RequestStorage, id: string, fn: (r: DataRequest) => Promise<T>, rebase?: Rebase): Promise<T> {
  const unlock = await store.lock(id);
  try {
    // Authenticated before anything is sent or changed: a state file changed by anything but the tool is refused.
    const r = await store.loadChecked(id);
    try {
      return await fn(r);
    } finally {
      // What was sent or learned is kept even when a later step fails.
      await saveMerged(store, r, rebase);
    }
  } finally {
    await unlock();
  }
}
