// Who is calling: the credential headers an operation accepts (from the operation table), checked
// in the table's order; the first one present decides. Also issues what callers present later.

import { timingSafeEqual } from 'node:crypto';
import type { OperationSpec } from '../core/api/operations';
import type { EntityTokenResult } from '../core/api/types';
import { ApiError, badRequest } from './http';
import type { TitleState } from './state';
import { checkEntityToken, checkSessionTicket, issueEntityToken, issueSessionTicket } from './tokens';
import type { EntityType, TokenClaims } from './tokens';

export type Headers = Record<string, string | string[] | undefined>;

export type Caller =
  | { via: 'X-SecretKey' }
  | { via: 'X-EntityToken'; claims: TokenClaims }
  | { via: 'X-Authorization'; claims: TokenClaims & { p: string } };

export function header(h: Headers, name: string): string | undefined {
  const v = h[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class Credentials {
  /** Secret key -> title ID, to tell a wrong title's key from an unknown one. */
  private secretKeys = new Map<string, string>();

  constructor(
    private tokenSecret: Buffer,
    private readonly now: () => number,
    /** Tokens issued at or before this emulator time count as expired. */
    private readonly expiredBefore: () => number,
  ) {}

  /** A restored snapshot brings its own token key: the tokens issued before it work again. */
  retarget(tokenSecret: Buffer): void {
    this.tokenSecret = tokenSecret;
  }

  reindex(titles: readonly TitleState[]): void {
    this.secretKeys = new Map(titles.map((t) => [t.secretKey, t.titleId]));
  }

  /** The caller of `spec` on `title`, or the service's error for a missing or wrong credential. */
  authenticate(spec: OperationSpec, title: TitleState, headers: Headers): Caller {
    for (const h of spec.auth) {
      const value = header(headers, h);
      if (!value) continue;
      if (h === 'X-SecretKey') {
        this.requireSecretKey(title, value);
        return { via: h };
      }
      if (h === 'X-EntityToken') {
        const claims = this.requireEntityToken(title, value);
        if (spec.entityType !== undefined && claims.et !== spec.entityType) {
          throw badRequest('InvalidEntityType', `${spec.path} needs a ${spec.entityType} entity token; this one is for a ${claims.et} (get a title token with Authentication/GetEntityToken and the secret key).`);
        }
        return { via: h, claims };
      }
      return { via: h, claims: this.requireSessionTicket(title, value) };
    }
    if (spec.auth.length === 1 && spec.auth[0] === 'X-EntityToken') {
      throw new ApiError(401, 'EntityTokenMissing', `${spec.path} needs an entity token in the X-EntityToken header (get one with Authentication/GetEntityToken).`);
    }
    const which = spec.auth.length === 1 ? 'the title secret key in the X-SecretKey header' : `one of the headers ${spec.auth.join(', ')}`;
    throw new ApiError(401, 'NotAuthenticated', `${spec.path} needs ${which}.`);
  }

  private requireSecretKey(title: TitleState, key: string): void {
    if (sameSecret(key, title.secretKey)) return;
    if (this.secretKeys.has(key)) {
      throw new ApiError(403, 'NotAuthorized', `The X-SecretKey belongs to another title, not ${title.titleId}; use this title's own secret key.`);
    }
    throw new ApiError(401, 'SecretKeyNotFound', `The X-SecretKey is not a secret key of title ${title.titleId}; copy the key again from the title's settings.`);
  }

  private requireEntityToken(title: TitleState, token: string): TokenClaims {
    const check = checkEntityToken(this.tokenSecret, token, this.now(), this.expiredBefore());
    if (!check.ok) {
      if (check.reason === 'expired') throw new ApiError(401, 'EntityTokenExpired', 'The entity token has expired; get a fresh one with Authentication/GetEntityToken.');
      throw new ApiError(401, 'EntityTokenInvalid', 'The entity token is not valid; get a fresh one with Authentication/GetEntityToken.');
    }
    if (check.claims.t !== title.titleId) {
      throw new ApiError(403, 'NotAuthorized', `The entity token was issued for another title, not ${title.titleId}.`);
    }
    return check.claims;
  }

  private requireSessionTicket(title: TitleState, ticket: string): TokenClaims & { p: string } {
    const check = checkSessionTicket(this.tokenSecret, ticket, this.now(), this.expiredBefore());
    if (!check.ok || check.claims.p === undefined) {
      throw new ApiError(401, 'NotAuthenticated', 'The X-Authorization session ticket is not valid or has expired; log the player in again for a new one.');
    }
    if (check.claims.t !== title.titleId) {
      throw new ApiError(403, 'NotAuthorized', `The session ticket was issued for another title, not ${title.titleId}.`);
    }
    return check.claims as TokenClaims & { p: string };
  }

  issueToken(titleId: string, type: EntityType, id: string): EntityTokenResult {
    return issueEntityToken(this.tokenSecret, titleId, type, id, this.issueTime());
  }

  issueTicket(titleId: string, platformId: string, titlePlayerAccountId: string): string {
    return issueSessionTicket(this.tokenSecret, titleId, platformId, titlePlayerAccountId, this.issueTime());
  }

  /** Strictly after the tokens/expire cut-off, even within the same millisecond. */
  private issueTime(): number {
    return Math.max(this.now(), this.expiredBefore() + 1);
  }
}
