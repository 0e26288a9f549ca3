// Entity tokens: stateless (claims + HMAC), so they cost no memory per issue and survive
// a restart with --data; `tokens/expire` moves a cut-off instead of tracking tokens.

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EntityTokenResult } from '../core/api/types';
import { isoUtc } from './state';

export const ENTITY_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

export type EntityType = 'title' | 'title_player_account';

export interface TokenClaims {
  /** Title the token was issued for. */
  t: string;
  et: EntityType;
  id: string;
  iat: number;
  exp: number;
}

export type TokenCheck =
  | { ok: true; claims: TokenClaims }
  | { ok: false; reason: 'invalid' | 'expired' };

export function issueEntityToken(secret: Buffer, titleId: string, type: EntityType, id: string, nowMs: number): EntityTokenResult {
  const claims: TokenClaims = { t: titleId, et: type, id, iat: nowMs, exp: nowMs + ENTITY_TOKEN_LIFETIME_MS };
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const sig = createHmac('sha256', secret).update(body).digest('base64url');
  return {
    EntityToken: `${body}.${sig}`,
    TokenExpiration: isoUtc(claims.exp),
    Entity: { Id: id, Type: type, TypeString: type },
  };
}

export function checkEntityToken(secret: Buffer, token: string, nowMs: number, expiredBefore: number): TokenCheck {
  const dot = token.indexOf('.');
  if (dot <= 0 || token.length > 2048) return { ok: false, reason: 'invalid' };
  const body = token.slice(0, dot);
  const sig = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = createHmac('sha256', secret).update(body).digest();
  if (sig.length !== expected.length || !timingSafeEqual(sig, expected)) return { ok: false, reason: 'invalid' };
  let claims: TokenClaims;
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as TokenClaims;
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (claims.exp <= nowMs || claims.iat <= expiredBefore) return { ok: false, reason: 'expired' };
  return { ok: true, claims };
}
