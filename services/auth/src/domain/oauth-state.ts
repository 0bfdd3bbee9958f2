import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SigningKeys } from '../data/signing-keys';

/** What the start of a login keeps for its callback (in a signed, HttpOnly, short-lived cookie). */
export interface OAuthState {
  /** State id: consumed once (oauth_states). */
  id: string;
  provider: string;
  state: string;
  nonce: string;
  verifier: string;
  redirect?: string;
  /** Expiry, ms since the epoch. */
  exp: number;
}

export const OAUTH_STATE_COOKIE = 'vellum_oauth_state';
export const OAUTH_STATE_TTL_MS = 10 * 60_000;

export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** HMAC-SHA256 over the JSON, with a key derived from the signing key: base64url(json) + "." + base64url(mac). */
export class OAuthStateSealer {
  private readonly key: Buffer;
  constructor(keys: SigningKeys) {
    const der = keys.privateKey.export({ format: 'der', type: 'pkcs8' });
    this.key = Buffer.from(hkdfSync('sha256', der, 'vellum-auth', 'oauth-state-cookie', 32));
  }

  private mac(body: string) {
    return createHmac('sha256', this.key).update(body).digest();
  }

  seal(s: OAuthState): string {
    const body = Buffer.from(JSON.stringify(s)).toString('base64url');
    return `${body}.${this.mac(body).toString('base64url')}`;
  }

  /** The state if the signature holds and it has not expired; else undefined. */
  open(value: string | undefined, now: Date): OAuthState | undefined {
    if (!value) return undefined;
    const [body, sig, extra] = value.split('.');
    if (!body || !sig || extra !== undefined) return undefined;
    const given = Buffer.from(sig, 'base64url');
    const expected = this.mac(body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const s = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as OAuthState;
      return typeof s.exp === 'number' && s.exp > now.getTime() ? s : undefined;
    } catch {
      return undefined;
    }
  }
}
