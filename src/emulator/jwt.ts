// Launcher identity tokens: the emulator plays the launcher's identity provider (it mints
// ES256 JWTs for tests and the demo) and verifies them in LoginWithLauncher with `jose`.

import { errors, generateKeyPair, importJWK, jwtVerify, SignJWT } from 'jose';
import type { CryptoKey, JWK } from 'jose';
import type { ErrorName } from '../core/api/types';
import type { LauncherSettings } from './state';

export interface MintOptions {
  subject: string;
  /** Emulator time (ms) the token is issued at. */
  nowMs: number;
  /** Lifetime from now; negative gives an already expired token. Default 3600. */
  expiresInSeconds?: number;
  /** Seconds from now before which the token is not valid (nbf). Absent: no nbf claim. */
  notBefore?: number;
  issuer?: string;
  audience?: string;
  /** Sign with a key the title does not know (InvalidSignature). */
  wrongKey?: boolean;
}

export type VerifyResult =
  | { ok: true; subject: string }
  | { ok: false; error: ErrorName; message: string };

/** Imported keys, cached by JWK text so a login does not re-import per request. */
export class LauncherKeyCache {
  private readonly keys = new Map<string, Promise<CryptoKey>>();
  private strangerKey: Promise<CryptoKey> | undefined;

  get(jwk: JWK): Promise<CryptoKey> {
    const id = JSON.stringify(jwk);
    let key = this.keys.get(id);
    if (!key) {
      key = importJWK(jwk, 'ES256') as Promise<CryptoKey>;
      this.keys.set(id, key);
    }
    return key;
  }

  /** A private key no title trusts, generated once per emulator. */
  stranger(): Promise<CryptoKey> {
    this.strangerKey ??= generateKeyPair('ES256').then((pair) => pair.privateKey);
    return this.strangerKey;
  }

  clear(): void {
    this.keys.clear();
  }
}

export async function mintLauncherToken(settings: LauncherSettings, cache: LauncherKeyCache, o: MintOptions): Promise<string> {
  const nowSec = Math.floor(o.nowMs / 1000);
  const jwt = new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
    .setSubject(o.subject)
    .setIssuer(o.issuer ?? settings.issuer)
    .setAudience(o.audience ?? settings.audience)
    .setIssuedAt(nowSec)
    .setExpirationTime(nowSec + (o.expiresInSeconds ?? 3600));
  if (o.notBefore !== undefined) jwt.setNotBefore(nowSec + o.notBefore);
  const key = o.wrongKey ? await cache.stranger() : await cache.get(settings.privateJwk);
  return jwt.sign(key);
}

/** Verifies signature, exp/nbf (against the emulator clock) and iss/aud; maps each failure to its code. */
export async function verifyLauncherToken(token: string, settings: LauncherSettings, cache: LauncherKeyCache, nowMs: number): Promise<VerifyResult> {
  try {
    const key = await cache.get(settings.publicJwk);
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['ES256'],
      issuer: settings.issuer,
      audience: settings.audience,
      currentDate: new Date(nowMs),
      requiredClaims: ['sub', 'exp'],
    });
    return { ok: true, subject: String(payload.sub) };
  } catch (e) {
    if (e instanceof errors.JWSSignatureVerificationFailed) {
      return { ok: false, error: 'InvalidSignature', message: 'The IdentityToken signature does not match the launcher key of this title.' };
    }
    if (e instanceof errors.JWTExpired) {
      return { ok: false, error: 'InvalidSignatureTime', message: 'The IdentityToken has expired; sign in to the launcher again for a fresh token.' };
    }
    if (e instanceof errors.JWTClaimValidationFailed && e.claim === 'nbf' && e.reason === 'check_failed') {
      return { ok: false, error: 'InvalidSignatureTime', message: 'The IdentityToken is not valid yet (nbf is in the future).' };
    }
    if (e instanceof errors.JWTClaimValidationFailed) {
      return { ok: false, error: 'InvalidAuthToken', message: `The IdentityToken claim "${e.claim}" is missing or not accepted by this title.` };
    }
    return { ok: false, error: 'InvalidAuthToken', message: 'The IdentityToken is not a well-formed ES256 JWT.' };
  }
}
