// Service results for the panel tests: every string slot is filled from a supplier, so a
// test can put a recognisable marker or a hostile payload in each one.
import type { HandheldStoreConfig, LoginResult } from '../../../src/core/api/types';

/** Recognisable secrets: none of them may ever reach a page, a message or a document. */
export const SECRETS = {
  EntityToken: 'ENTITYTOKENsecret0123456789abcdefXYZ-entity-7f3a',
  SessionTicket: 'SESSIONTICKETsecret9876543210fedcbaQRS-ticket-88b1',
  ClientSecret: 'CLIENTSECRETsecret5555aaaa6666bbbbCLIENT-c1d2',
  IdentityToken: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJsYXVuY2hlciJ9.c2lnbmF0dXJlLXNlY3JldA',
} as const;

export type Supplier = () => string;

/** A supplier cycling through `values`, starting at `offset`; `used` records what it gave. */
export function rotating(values: readonly string[], offset: number, used: string[] = []): Supplier {
  let i = offset;
  return () => {
    const v = values[i++ % values.length];
    used.push(v);
    return v;
  };
}

/** A login result with every member the spec names, plus unknown members, strings from `s`. */
export function loginResult(s: Supplier, secrets: { EntityToken: string; SessionTicket: string } = SECRETS): LoginResult {
  const entity = () => ({ Id: s(), Type: s(), TypeString: s() });
  const providerInfo: Record<string, unknown> = { [s()]: s(), IdentityToken: SECRETS.IdentityToken };
  const result = {
    NewlyCreated: true,
    PlatformId: s(),
    LastLoginTime: s(),
    SessionTicket: secrets.SessionTicket,
    EntityToken: { EntityToken: secrets.EntityToken, TokenExpiration: s(), Entity: entity() },
    SettingsForUser: { GatherDeviceInfo: true, GatherFocusInfo: false, NeedsAttribution: false, [s()]: s() },
    TreatmentAssignment: {
      Variables: [{ Name: s(), Value: s() }, { Name: s(), Value: s() }],
      Variants: [s(), s()],
    },
    InfoResultPayload: {
      AccountInfo: {
        PlatformId: s(),
        Created: s(),
        Username: s(),
        TitleInfo: { Origination: s(), Created: s(), LastLogin: s(), FirstLogin: s(), TitlePlayerAccount: entity() },
        [s()]: providerInfo,
      },
      PlayerProfile: {
        TitleId: s(), PlayerId: s(), Created: s(), LastLogin: s(), BannedUntil: s(), DisplayName: s(),
        TotalValueToDateInUSD: 1250,
      },
      UserData: {
        [s()]: { Value: s(), LastUpdated: s(), Permission: s() },
        [s()]: { Value: s(), LastUpdated: s() },
      },
      UserDataVersion: 7,
      UserReadOnlyDataVersion: 2,
      UserVirtualCurrency: { [s()]: 250, GC: 3 },
      UserVirtualCurrencyRechargeTimes: { GC: { SecondsToRecharge: 60, RechargeTime: s(), RechargeMax: 5 } },
    },
    [s()]: s(),
  };
  return result as unknown as LoginResult;
}

/** A HandheldStore configuration where the service (wrongly) returns ClientSecret everywhere. */
export function handheldStoreConfig(s: Supplier, clientSecret: string = SECRETS.ClientSecret): HandheldStoreConfig {
  const env = () => ({ ClientID: s(), ClientSecret: clientSecret, ID: s() });
  return {
    Created: true,
    ApplicationID: s(),
    Environments: [env(), env(), { ClientID: s(), clientsecret: clientSecret, ID: s() } as never],
    SubscriptionEnvironments: [env()],
    SecondarySubscriptionEnvironments: [env(), { ClientID: s(), ID: s(), [s()]: s() }],
  };
}

/** A valid login result of about `bytes` characters: user data entries, every hundredth echoing the session ticket. */
export function largeLoginResult(bytes: number, s: Supplier): LoginResult {
  const result = loginResult(s) as LoginResult & { InfoResultPayload: Record<string, unknown> };
  const data: Record<string, { Value: string; LastUpdated: string; Permission: string }> = {};
  for (let i = 0; i * 220 < bytes; i++) {
    data[`save-slot-${i}`] = { Value: i % 100 === 7 ? `ticket ${SECRETS.SessionTicket} again` : `level ${i} `.padEnd(150, 'x'), LastUpdated: '2026-01-01T00:00:00Z', Permission: 'Private' };
  }
  result.InfoResultPayload = { ...result.InfoResultPayload, UserData: data, UserDataVersion: 1 };
  return result;
}
