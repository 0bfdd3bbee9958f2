import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { errors } from '@vellum/errors';

export interface Jwk extends JsonWebKey {
  kid?: string;
}
export interface JwkSet {
  keys: Jwk[];
}

/** Where public keys come from: a fixed set (auth itself, tests) or a JWKS URL fetched and cached. */
export interface KeySource {
  /** The key for a kid; undefined when unknown even after a refresh. */
  get(kid: string): Promise<KeyObject | undefined>;
}

const toMap = (set: JwkSet) =>
  new Map(set.keys.filter((k) => k.kid).map((k) => [k.kid as string, createPublicKey({ key: k, format: 'jwk' })]));

/** A fixed key set (parsed once), or a function read on each lookup and re-parsed only when it returns a new set. */
export function staticKeySource(set: JwkSet | (() => JwkSet)): KeySource {
  let last: JwkSet | undefined;
  let keys = new Map<string, KeyObject>();
  return {
    async get(kid) {
      const current = typeof set === 'function' ? set() : set;
      if (current !== last) {
        keys = toMap(current);
        last = current;
      }
      return keys.get(kid);
    },
  };
}

export interface RemoteKeySourceOptions {
  url: string;
  /** Do not refetch more often than this on unknown kids (ms). */
  minRefreshIntervalMs?: number;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}

/**
 * A JWKS fetched from the auth service, cached; an unknown kid triggers one refetch (rate-limited), so key
 * rotation needs no restart. If auth is unreachable, the cached keys keep working; with no cache at all the
 * caller gets 503 SERVICE_UNAVAILABLE, bounded by the timeout.
 */
export function remoteKeySource({ url, minRefreshIntervalMs = 5000, timeoutMs = 3000, fetchImpl = fetch }: RemoteKeySourceOptions): KeySource {
  let keys = new Map<string, KeyObject>();
  let lastFetch = 0;
  let inflight: Promise<void> | undefined;
  const refresh = () =>
    (inflight ??= (async () => {
      try {
        const res = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs) });
        if (!res.ok) throw new Error(`JWKS answered ${res.status}`);
        keys = toMap((await res.json()) as JwkSet);
        lastFetch = Date.now();
      } finally {
        inflight = undefined;
      }
    })());
  return {
    async get(kid) {
      const known = keys.get(kid);
      if (known) return known;
      if (keys.size > 0 && Date.now() - lastFetch < minRefreshIntervalMs) return undefined;
      try {
        await refresh();
      } catch (e) {
        if (keys.size === 0) throw errors.serviceUnavailable('auth', `cannot fetch the key set: ${(e as Error).message}`);
        return undefined;
      }
      return keys.get(kid);
    },
  };
}
