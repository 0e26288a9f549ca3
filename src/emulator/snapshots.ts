// Snapshots of the whole state: named ones in memory (POST /_emulator/snapshots/NAME, .../restore,
// GET /_emulator/snapshots) and snapshot files (--snapshot-on-exit FILE, --load FILE). A restore
// also sets the emulator clock back to the snapshot's time, so queued deletions have exactly the
// time left they had and their timers run again from there.
import { readFileSync } from 'node:fs';
import type { SnapshotInfo } from '../../packages/emulator/index';
import { invalidParams } from './http';
import { parseState, writeFileAtomic } from './persistence';
import type { PlatformService } from './service';
import type { PersistedState } from './state';
import { MAX_CLOCK_OFFSET_MS } from './stateCheck';

const NAME_RE = /^[A-Za-z0-9._-]{1,64}$/;
const MAX_SNAPSHOTS = 100;
const FORMAT = 'platform-emulator-snapshot';

/** A snapshot file's content. */
export interface SnapshotFile {
  format: typeof FORMAT;
  version: 1;
  /** Emulator time when it was taken (ms since 1970). */
  takenAt: number;
  state: PersistedState;
}

export type { SnapshotInfo };

export function takeSnapshot(service: PlatformService): SnapshotFile {
  // A deep copy: later requests change the live state, never the snapshot.
  return { format: FORMAT, version: 1, takenAt: service.now(), state: JSON.parse(JSON.stringify(service.state)) as PersistedState };
}

/** The state a snapshot brings back, its clock set to the snapshot's time. */
function restoredState(s: SnapshotFile): PersistedState {
  const state = JSON.parse(JSON.stringify(s.state)) as PersistedState;
  state.clockOffsetMs = Math.max(-MAX_CLOCK_OFFSET_MS, Math.min(MAX_CLOCK_OFFSET_MS, s.takenAt - Date.now()));
  return state;
}

async function restoreSnapshot(service: PlatformService, s: SnapshotFile): Promise<void> {
  await service.replace(restoredState(s));
}

/** Reads and checks a snapshot file (--load); the error names the file and the member. */
export function readSnapshotFile(file: string): PersistedState {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`Cannot load the snapshot file ${file}: ${(e as Error).message}. Give a file written by --snapshot-on-exit.`);
  }
  const s = parsed as Partial<SnapshotFile> | null;
  if (!s || s.format !== FORMAT || s.version !== 1 || typeof s.takenAt !== 'number' || !Number.isFinite(s.takenAt) || s.takenAt < 0 || s.takenAt > Date.UTC(9000, 0, 1)) {
    throw new Error(`The snapshot file ${file} is not a platform-emulator snapshot (format, version 1, takenAt); give a file written by --snapshot-on-exit.`);
  }
  const state = parseState(s.state, `The snapshot file ${file}`, 'give a file written by --snapshot-on-exit.');
  return restoredState({ ...(s as SnapshotFile), state });
}

export async function writeSnapshotFile(file: string, s: SnapshotFile): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(s) + '\n');
}

/** The named snapshots of one emulator run. */
export class Snapshots {
  private readonly named = new Map<string, SnapshotFile>();

  private checkName(name: string): void {
    if (!NAME_RE.test(name)) throw invalidParams({ name: ['A snapshot name has 1 to 64 letters, digits, dots, dashes or underscores.'] });
  }

  save(name: string, service: PlatformService): SnapshotInfo {
    this.checkName(name);
    if (!this.named.has(name) && this.named.size >= MAX_SNAPSHOTS) {
      throw invalidParams({ name: [`There are already ${MAX_SNAPSHOTS} snapshots; reuse a name to replace one.`] });
    }
    const s = takeSnapshot(service);
    this.named.set(name, s);
    return info(name, s);
  }

  async restore(name: string, service: PlatformService): Promise<SnapshotInfo> {
    this.checkName(name);
    const s = this.named.get(name);
    if (!s) throw invalidParams({ name: [`No snapshot named ${name}; GET /_emulator/snapshots lists them.`] });
    await restoreSnapshot(service, s);
    return info(name, s);
  }

  list(): SnapshotInfo[] {
    return [...this.named].map(([name, s]) => info(name, s));
  }
}

function info(name: string, s: SnapshotFile): SnapshotInfo {
  return {
    name,
    takenAt: new Date(s.takenAt).toISOString(),
    titles: Object.keys(s.state.data.titles).length,
    players: Object.keys(s.state.data.players).length,
    queuedJobs: s.state.data.jobs.filter((j) => j.status === 'queued').length,
  };
}
