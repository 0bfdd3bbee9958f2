import { errors } from '@vellum/errors';
import { API_TOKEN_FETCH_TIMEOUT_MS, hashApiToken } from './api-tokens';
import { cachedVerifier } from './cached-verifier';
import type { AccessTokenClaims } from './claims';
import type { TokenVerifier } from './token-verifier';

const claims = (exp: number, extra: Partial<AccessTokenClaims> = {}): AccessTokenClaims => ({
  id: 'u',
  role: null,
  app_access: true,
  admin_access: false,
  iss: 'vellum',
  iat: 0,
  exp,
  ...extra,
});

/** A verifier that accepts tokens named `ok:<exp seconds>` and counts its calls. */
function counting() {
  const calls: string[] = [];
  const inner: TokenVerifier = {
    async verify(token) {
      calls.push(token);
      const [kind, exp] = token.split(':');
      if (kind !== 'ok') throw errors.invalidToken();
      if (Number(exp) * 1000 <= now) throw errors.tokenExpired();
      return claims(Number(exp));
    },
  };
  return { inner, calls };
}
let now = 1_000_000;

/** A cache of `max` entries that has verified ok:2000, then ok:2001. */
async function twoVerified(max: number) {
  now = 1_000_000;
  const { inner, calls } = counting();
  const v = cachedVerifier(inner, { max, now: () => now });
  await v.verify('ok:2000');
  await v.verify('ok:2001');
  return { v, calls };
}

describe('cachedVerifier', () => {
  it('verifies a token once, then answers from memory until it expires, then TOKEN_EXPIRED', async () => {
    now = 1_000_000;
    const { inner, calls } = counting();
    const v = cachedVerifier(inner, { now: () => now });
    const token = 'ok:1010'; // exp 1,010 s = now + 10 s
    expect(v.cached(token)).toBeUndefined();
    await v.verify(token);
    expect((await v.verify(token)).exp).toBe(1010);
    expect(v.cached(token)?.id).toBe('u');
    expect(calls).toEqual([token]);
    now = 1_009_999;
    expect(v.cached(token)).toBeDefined();
    now = 1_010_000; // exp reached: the verifier refuses at now >= exp, so must the cache
    expect(v.cached(token)).toBeUndefined();
    await expect(v.verify(token)).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
    expect(calls).toEqual([token, token]);
  });

  it('never remembers a failure', async () => {
    now = 1_000_000;
    const { inner, calls } = counting();
    const v = cachedVerifier(inner, { now: () => now });
    await expect(v.verify('bad:1')).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    await expect(v.verify('bad:1')).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    expect(calls).toHaveLength(2);
    expect(v.size).toBe(0);
  });

  it('is bounded: the least recently used token goes first', async () => {
    const { v, calls } = await twoVerified(2);
    expect(v.cached('ok:2000')).toBeDefined(); // now 2001 is the least recently used
    await v.verify('ok:2002');
    expect(v.size).toBe(2);
    expect(v.cached('ok:2001')).toBeUndefined();
    expect(v.cached('ok:2000')).toBeDefined();
    expect(v.cached('ok:2002')).toBeDefined();
    expect(calls).toEqual(['ok:2000', 'ok:2001', 'ok:2002']);
  });

  it('max 0 turns the cache off', async () => {
    const { v, calls } = await twoVerified(0);
    await v.verify('ok:2000');
    expect(calls).toEqual(['ok:2000', 'ok:2001', 'ok:2000']);
    expect(v.size).toBe(0);
  });
});

describe('API tokens at the gateway', () => {
  it('are answered from the map synchronously, never remembered: a removed entry is refused at once', async () => {
    const token = 'vlm_0123abcd_secret-secret-secret';
    const map = new Map([[hashApiToken(token), { id: 't', user: 'u2', role: 'r', admin: false, app: true, expires_at: null }]]);
    const used: string[] = [];
    const { inner, calls } = counting();
    const v = cachedVerifier(inner, { now: () => now, apiTokens: { get: (h) => map.get(h) }, onTokenUse: (e) => used.push(e.id) });
    expect(v.cached(token)).toMatchObject({ id: 'u2', role: 'r', api_token: 't' });
    expect((await v.verify(token)).id).toBe('u2');
    expect(used).toEqual(['t', 't']);
    map.clear();
    expect(() => v.cached(token)).toThrow(expect.objectContaining({ code: 'INVALID_CREDENTIALS' }));
    await expect(v.verify(token)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(calls).toEqual([]); // never reached the JWT verifier
    expect(v.size).toBe(0);
  });

  it('a token the map does not have yet (created a moment ago) is read from the bucket by verify, and not kept', async () => {
    const token = 'vlm_0123abcd_brand-new-secret';
    const entry = { id: 'new', user: 'u3', role: 'r', admin: false, app: true, expires_at: null };
    const map = new Map<string, typeof entry>();
    const bucket = new Map([[hashApiToken(token), entry]]);
    const fetched: string[] = [];
    const fetch = async (h: string) => (fetched.push(h), bucket.get(h));
    const v = cachedVerifier(counting().inner, { now: () => now, apiTokens: { get: (h) => map.get(h), fetch } });
    expect(v.cached(token)).toBeUndefined(); // the synchronous path leaves it to verify
    expect(await v.verify(token)).toMatchObject({ id: 'u3', api_token: 'new' });
    expect(await v.verify(token)).toMatchObject({ id: 'u3' });
    expect(fetched).toHaveLength(2); // read again: only the watched map is a copy
    bucket.clear(); // revoked before the watch brought it
    await expect(v.verify(token)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    map.set(hashApiToken(token), entry); // the watch caught up: no bucket read
    expect(v.cached(token)).toMatchObject({ id: 'u3' });
    expect(fetched).toHaveLength(3);
  });

  it('a bucket read that fails or hangs counts as an unknown token, within API_TOKEN_FETCH_TIMEOUT_MS', async () => {
    const token = 'vlm_0123abcd_unknown-secret';
    const failing = cachedVerifier(counting().inner, { apiTokens: { get: () => undefined, fetch: () => Promise.reject(new Error('NATS down')) } });
    await expect(failing.verify(token)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    const hanging = cachedVerifier(counting().inner, { apiTokens: { get: () => undefined, fetch: () => new Promise(() => undefined) } });
    const start = Date.now();
    await expect(hanging.verify(token)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(Date.now() - start).toBeGreaterThanOrEqual(API_TOKEN_FETCH_TIMEOUT_MS - 50);
    expect(Date.now() - start).toBeLessThan(API_TOKEN_FETCH_TIMEOUT_MS + 1000);
  });
});
