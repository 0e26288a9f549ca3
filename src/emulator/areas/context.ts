// What the handlers of every API area see of the service, and their shape: one per operation of
// the table, given the title, the checked request and the authenticated caller.
import type { OperationName, RequestOf, ResultOf } from '../../core/api/operations';
import type { Caller, Credentials } from '../credentials';
import type { ExportJobs } from '../exports';
import type { DeletionJobs } from '../jobs';
import type { LauncherKeyCache } from '../jwt';
import { badRequest } from '../http';
import type { Indexes, EmulatorData, PlayerState, TitleState } from '../state';

export interface ServiceContext {
  readonly data: EmulatorData;
  readonly indexes: Indexes;
  readonly credentials: Credentials;
  readonly jobs: DeletionJobs;
  readonly exports: ExportJobs;
  readonly keyCache: LauncherKeyCache;
  /** Emulator time (the wall clock plus clock/advance). */
  now(): number;
  /** The state changed: written soon (debounced). */
  markDirty(): void;
  /** The state is on disk when this resolves. */
  persistNow(): Promise<void>;
}

export type Handler<N extends OperationName> = (title: TitleState, req: RequestOf<N>, caller: Caller) => ResultOf<N> | Promise<ResultOf<N>>;
export type Handlers<N extends OperationName = OperationName> = { [K in N]: Handler<K> };

/** The titles of the player's publisher that the player has played. */
export function playedTitles(data: EmulatorData, player: PlayerState): string[] {
  return Object.keys(player.titles).filter((t) => data.titles[t]?.publisherId === player.publisherId);
}

/** The player a PlatformId names, if of the title's publisher (the master account); else AccountNotFound 1001. */
export function findPlayer(s: ServiceContext, title: TitleState, platformId: string): PlayerState {
  const player = Object.hasOwn(s.data.players, platformId) ? s.data.players[platformId] : undefined;
  if (!player || player.publisherId !== title.publisherId) {
    throw badRequest('AccountNotFound', `No player with PlatformId ${platformId} exists for title ${title.titleId}.`);
  }
  return player;
}
