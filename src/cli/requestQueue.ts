// `request show --store postgres`: the shared queue of the team store. For each request, who holds
// a send of it now (a live lease: operator, fingerprint, machine, process, until when) and who did
// each step (the state's steps and the saves, each naming its operator).
import type { DataRequest } from '../core/requests';
import type { HeldSend, SaveRow } from '../core/store';

export interface Queue {
  held: HeldSend[];
  saves: SaveRow[];
}

const who = (o: { name: string; fingerprint: string }): string => `${o.name} (${o.fingerprint})`;

/** One request's part of the queue, for --json. */
export function queueOf(r: DataRequest, q: Queue): { heldBy: HeldSend[]; steps: { at: string; step: string; operator: { name: string; fingerprint: string } }[]; saves: SaveRow[] } {
  return {
    heldBy: q.held.filter((h) => h.requestId === r.id),
    steps: (r.steps ?? []).map((s) => ({ at: s.at, step: s.step, operator: { name: s.operator.name, fingerprint: s.operator.fingerprint } })),
    saves: q.saves.filter((s) => s.requestId === r.id),
  };
}

/** One request's part of the queue, as lines under its summary line. */
export function queueText(r: DataRequest, q: Queue): string {
  const mine = queueOf(r, q);
  const lines = mine.heldBy.length === 0
    ? ['    held by: nobody now']
    : mine.heldBy.map((h) => `    held by: ${who(h.operator)} on ${h.machine} (process ${h.pid}), sending ${h.action} of ${h.platformId}, lease until ${h.leaseUntil}`);
  for (const s of mine.steps) lines.push(`    ${s.at}  ${s.step.padEnd(13)} by ${who(s.operator)}`);
  const last = mine.saves[mine.saves.length - 1];
  if (last !== undefined) lines.push(`    last saved ${last.savedAt} (save ${last.generation}) by ${who(last.operator)} on ${last.machine}`);
  return lines.join('\n');
}
