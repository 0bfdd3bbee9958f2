import { generateKeyPairSync, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { staticKeySource, type JwkSet, type KeySource } from '@vellum/tokens';

export interface SignOptions {
  /** Lifetime in seconds from now (negative: already expired). Default 900. */
  expiresIn?: number;
  issuer?: string;
  /** The kid in the header (default the factory's). */
  keyid?: string;
  /** Sign with another key (a forged token). */
  key?: KeyObject;
}

export interface TestTokens {
  kid: string;
  privateKey: KeyObject;
  /** The public half, as the auth service serves it. */
  jwks: JwkSet;
  keySource: KeySource;
  /**
   * An ES256 access token as the auth service mints it (contract §3 claims; yours override the defaults: user
   * `user-1`, no role, app access, not admin).
   */
  sign(claims?: Record<string, unknown>, opts?: SignOptions): string;
}

/** A factory of access tokens: an ES256 key pair with a kid, its JWKS, a KeySource and a signer. */
export function testTokens(kid = 'test-key'): TestTokens {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwks: JwkSet = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' }] };
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return {
    kid,
    privateKey,
    jwks,
    keySource: staticKeySource(jwks),
    sign(claims = {}, opts = {}) {
      const now = Math.floor(Date.now() / 1000);
      const header = { alg: 'ES256', typ: 'JWT', kid: opts.keyid ?? kid };
      const payload = {
        id: 'user-1',
        role: null,
        app_access: true,
        admin_access: false,
        iat: now,
        exp: now + (opts.expiresIn ?? 900),
        iss: opts.issuer ?? 'vellum',
        ...claims,
      };
      const input = `${b64(header)}.${b64(payload)}`;
      const key = opts.key ?? privateKey;
      return `${input}.${cryptoSign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
    },
  };
}
