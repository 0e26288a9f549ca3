// What the product takes from each operation's answer: the table's result schema checked (the
// first problem becomes a clear "malformed" error), then the few things the product needs on
// top: lists default to empty, ClientSecret never leaves this file, lookup entries map to inputs.
import { NoTokenError, ShapeError } from './envelope';
import { parseServiceTime } from '../time';
import { OPERATIONS, type OperationName, type ResultOf } from './operations';
import { validate, type Schema } from './schema';
import type {
  DeleteMasterPlayerAccountResult, EntityTokenResult, ExportMasterPlayerDataResult, GetPlayedTitleListResult, GetUserAccountInfoResult, HandheldStoreConfig,
  HandheldStoreEnvironment, LoginResult,
} from './types';

function checked<T>(data: unknown, schema: Schema<T>): T {
  const r = validate(data, schema, 'data');
  if (r.issues.length > 0) {
    const more = r.issues.length > 1 ? ` (and ${r.issues.length - 1} more)` : '';
    throw new ShapeError(`${r.issues[0].message}${more}`);
  }
  return r.value;
}

function result<N extends OperationName>(name: N, data: unknown): ResultOf<N> {
  return checked(data, OPERATIONS[name].result as Schema<ResultOf<N>>);
}

function withoutSecret(envs: HandheldStoreEnvironment[] | undefined): HandheldStoreEnvironment[] | undefined {
  return envs?.map(({ ClientSecret: _omitted, ...rest }) => rest);
}

/** One entry of a lookup answer: the identifier as the service echoed it, and its PlatformId or null. */
export interface LookupEntry {
  id?: string;
  platformId: string | null;
}

/** Per-operation validators of `data`. */
export const validators = {
  deleteMasterPlayerAccount(data: unknown): DeleteMasterPlayerAccountResult {
    const r = result('DeleteMasterPlayerAccount', data);
    return { ...r, TitleIds: r.TitleIds ?? [] };
  },
  getPlayedTitleList(data: unknown): GetPlayedTitleListResult {
    const r = result('GetPlayedTitleList', data);
    return { ...r, TitleIds: r.TitleIds ?? [] };
  },
  getUserAccountInfo(data: unknown): GetUserAccountInfoResult {
    return result('GetUserAccountInfo', data);
  },
  exportMasterPlayerData(data: unknown): ExportMasterPlayerDataResult {
    return result('ExportMasterPlayerData', data);
  },
  loginWithLauncher(data: unknown): LoginResult {
    return result('LoginWithLauncher', data);
  },
  entityToken(data: unknown): EntityTokenResult {
    const r = result('GetEntityToken', data);
    // The published description makes the token optional; without one there is nothing to use.
    if (r.EntityToken === undefined || r.EntityToken.length === 0) throw new NoTokenError();
    if (r.TokenExpiration !== undefined && Number.isNaN(parseServiceTime(r.TokenExpiration))) {
      throw new ShapeError('data.TokenExpiration is not a date');
    }
    return { ...r, EntityToken: r.EntityToken };
  },
  handheldStore(data: unknown): HandheldStoreConfig {
    const r = result('GetHandheldStore', data);
    const out: HandheldStoreConfig = { ...r };
    for (const k of ['Environments', 'SecondarySubscriptionEnvironments', 'SubscriptionEnvironments'] as const) {
      if (r[k] !== undefined) {
        out[k] = withoutSecret(r[k]);
      }
    }
    return out;
  },
  empty(_data: unknown): void {
    // Deletes answer with an empty object; whatever else comes there carries nothing the product
    // uses, and refusing it would report a deletion that happened as failed.
  },
  lookup(idMember: 'ConsoleLiveAccountId' | 'StorefrontName'): (data: unknown) => (LookupEntry | null)[] {
    const name = idMember === 'ConsoleLiveAccountId' ? 'GetPlatformIDsFromConsoleLiveIDs' : 'GetPlatformIDsFromStorefrontNames';
    return (data) => {
      const r = result(name, data) as { Data?: (Record<string, string | undefined> | null)[] };
      // No Data: the service linked none of them.
      return (r.Data ?? []).map((e) => (e === null ? null : { id: e[idMember], platformId: e.PlatformId ?? null }));
    };
  },
};
