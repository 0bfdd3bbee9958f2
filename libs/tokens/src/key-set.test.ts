import { generateKeyPairSync } from 'node:crypto';
import type { AppError } from '@vellum/errors';
import { jwksUrl, remoteKeySource, staticKeySource, type JwkSet } from './key-set';

const jwk = (kid: string) => ({ ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' });
const k1 = jwk('k1');
const k2 = jwk('k2');
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'OK',
    (e: AppError) => e.code,
  );

/** A JWKS endpoint in memory: `set` is served, `down` makes it fail; `calls` counts fetches. */
function fakeAuth(set: JwkSet) {
  const state = { set, down: false, calls: 0 };
  const fetchImpl = (async () => {
    state.calls++;
    if (state.down) throw new Error('ECONNREFUSED');
    return new Response(JSON.stringify(state.set), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { state, fetchImpl };
}

describe('jwksUrl', () => {
  it('is the auth service’s well-known path, with or without a trailing slash', () => {
    expect(jwksUrl('http://auth:8056')).toBe('http://auth:8056/auth/.well-known/jwks.json');
    expect(jwksUrl('http://auth:8056/')).toBe('http://auth:8056/auth/.well-known/jwks.json');
  });
});

describe('static key source', () => {
  it('finds keys by kid; an unknown kid is undefined; a function is re-read when it returns a new set', async () => {
    let set: JwkSet = { keys: [k1] };
    const src = staticKeySource(() => set);
    expect(await src.get('k1')).toBeDefined();
    expect(await src.get('k2')).toBeUndefined();
    set = { keys: [k1, k2] };
    expect(await src.get('k2')).toBeDefined();
  });
});

describe('remote key source (jose remote key set)', () => {
  it('fetches once, caches, and refetches on an unknown kid', async () => {
    const auth = fakeAuth({ keys: [k1] });
    const src = remoteKeySource({ url: 'http://auth/jwks', fetchImpl: auth.fetchImpl, minRefreshIntervalMs: 0 });
    expect(await src.get('k1')).toBeDefined();
    expect(await src.get('k1')).toBeDefined();
    expect(auth.state.calls).toBe(1);
    auth.state.set = { keys: [k1, k2] }; // key rotation: no restart needed
    expect(await src.get('k2')).toBeDefined();
    expect(auth.state.calls).toBe(2);
  });

  it('refetches for unknown kids at most once per cooldown, and concurrent lookups share one fetch', async () => {
    const auth = fakeAuth({ keys: [k1] });
    const src = remoteKeySource({ url: 'http://auth/jwks', fetchImpl: auth.fetchImpl, minRefreshIntervalMs: 60_000 });
    await Promise.all([src.get('k1'), src.get('k1'), src.get('k1')]);
    expect(auth.state.calls).toBe(1);
    expect(await src.get('nope')).toBeUndefined();
    expect(await src.get('nope-again')).toBeUndefined();
    expect(auth.state.calls).toBe(1); // cooling down: no fetch per forged kid
  });

  it('keeps serving the last key set while auth is down; unknown kids are just unknown', async () => {
    const auth = fakeAuth({ keys: [k1] });
    const src = remoteKeySource({ url: 'http://auth/jwks', fetchImpl: auth.fetchImpl, minRefreshIntervalMs: 0 });
    expect(await src.get('k1')).toBeDefined();
    auth.state.down = true;
    expect(await src.get('k1')).toBeDefined();
    expect(await src.get('k2')).toBeUndefined();
    expect(auth.state.calls).toBe(2); // the unknown kid tried once
    auth.state.down = false;
    auth.state.set = { keys: [k1, k2] };
    expect(await src.get('k2')).toBeDefined(); // back up: found
  });

  it('answers 503 SERVICE_UNAVAILABLE when auth is unreachable and nothing is cached, and recovers', async () => {
    const auth = fakeAuth({ keys: [k1] });
    auth.state.down = true;
    const src = remoteKeySource({ url: 'http://auth/jwks', fetchImpl: auth.fetchImpl });
    expect(await code(src.get('k1'))).toBe('SERVICE_UNAVAILABLE');
    expect(await code(src.get('k1'))).toBe('SERVICE_UNAVAILABLE');
    auth.state.down = false;
    expect(await code(src.get('k1'))).toBe('OK');
  });

  it('a non-200 answer or a hanging endpoint counts as down (bounded by the timeout)', async () => {
    const notOk = remoteKeySource({ url: 'http://x', fetchImpl: (async () => new Response('no', { status: 502 })) as typeof fetch });
    expect(await code(notOk.get('k1'))).toBe('SERVICE_UNAVAILABLE');
    const hang = (async (_u: string, init: RequestInit) =>
      new Promise((_r, reject) =>
        init.signal!.addEventListener('abort', () => reject(Object.assign(new Error('timeout'), { name: 'TimeoutError' }))),
      )) as unknown as typeof fetch;
    const t = Date.now();
    expect(await code(remoteKeySource({ url: 'http://x', fetchImpl: hang, timeoutMs: 100 }).get('k1'))).toBe('SERVICE_UNAVAILABLE');
    expect(Date.now() - t).toBeLessThan(2000);
  });
});
