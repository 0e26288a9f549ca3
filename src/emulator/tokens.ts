// Entity tokens and session tickets: stateless (claims + HMAC), so they cost no memory per issue
// and survive a restart with --data; `tokens/expire` moves a cut-off instead of tracking tokens.

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EntityTokenResult } from '../core/api/types';
import { isoUtc } from './state';

const ENTITY_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

export type EntityType = 'title' | 'title_player_account';

export interface TokenClaims {
  /** Title the token was issued for. */
  t: string;
  et: EntityType;
  id: string;
  iat: number;
  exp: number;
  /** Session tickets only: the player's PlatformId. */
  p?: string;
}

export type TokenCheck =
  | { ok: true; claims: TokenClaims }
  | { ok: false; reason: 'invalid' | 'expired' };

// Each kind signs under its own label, so a session ticket never passes as an entity token.
type Purpose = 'entity' | 'ticket';

function sign(secret: Buffer, purpose: Purpose, claims: TokenClaims): string {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const sig = createHmac('sha256', secret).update(`${purpose}.${body}`).digest('base64url');
  return `${body}.${sig}`;
}

function verify(secret: Buffer, purpose: Purpose, token: string, nowMs: number, expiredBefore: number): TokenCheck {
  const dot = token.indexOf('.');
  if (dot <= 0 || token.length > 2048) return { ok: false, reason: 'invalid' };
  const body = token.slice(0, dot);
  const sig = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = createHmac('sha256', secret).update(`${purpose}.${body}`).digest();
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

export function issueEntityToken(secret: Buffer, titleId: string, type: EntityType, id: string, nowMs: number): EntityTokenResult {
  const claims: TokenClaims = { t: titleId, et: type, id, iat: nowMs, exp: nowMs + ENTITY_TOKEN_LIFETIME_MS };
  return {
    EntityToken: sign(secret, 'entity', claims),
    TokenExpiration: isoUtc(claims.exp),
    Entity: { Id: id, Type: type, TypeString: type },
  };
}

export function checkEntityToken(secret: Buffer, token: string, nowMs: number, expiredBefore: number): TokenCheck {
  return verify(secret, 'entity', token, nowMs, expiredBefore);
}

/** A session ticket for a player's title player account (sent back as X-Authorization). */
export function issueSessionTicket(secret: Buffer, titleId: string, platformId: string, titlePlayerAccountId: string, nowMs: number): string {
  const claims: TokenClaims = { t: titleId, et: 'title_player_account', id: titlePlayerAccountId, p: platformId, iat: nowMs, exp: nowMs + ENTITY_TOKEN_LIFETIME_MS };
  return `${platformId}-${sign(secret, 'ticket', claims)}`;
}

export function checkSessionTicket(secret: Buffer, ticket: string, nowMs: number, expiredBefore: number): TokenCheck {
  const dash = ticket.indexOf('-');
  return dash <= 0 ? { ok: false, reason: 'invalid' } : verify(secret, 'ticket', ticket.slice(dash + 1), nowMs, expiredBefore);
}
