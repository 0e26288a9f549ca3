// Each step of a request: load -> lock -> act -> save (workflow.ts, evidenceSteps.ts), and the
// record of who ran it (the evidence names each entry's operator from these).
import type { OperatorRef } from '../operator';
import type { RequestStore } from './store';
import type { DataRequest } from './types';

/** Records who ran a step (the evidence names each entry's operator from these). */
export function noteStep(r: DataRequest, step: string, operator: OperatorRef | undefined, at: string): void {
  if (operator !== undefined) (r.steps ??= []).push({ at, step, operator: { fingerprint: operator.fingerprint, name: operator.name } });
}

/** Runs `fn` on the request under its lock and saves what it changed. */
export async function withRequest<T>(store: RequestStore, id: string, fn: (r: DataRequest) => Promise<T>): Promise<T> {
  const unlock = await store.lock(id);
  try {
    // Authenticated before anything is sent or changed: a state file changed by anything but the tool is refused.
    const r = await store.loadChecked(id);
    try {
      return await fn(r);
    } finally {
      // What was sent or learned is kept even when a later step fails.
      await store.save(r);
    }
  } finally {
    await unlock();
  }
}

