import type { KeyObject, JsonWebKey, webcrypto } from 'node:crypto';
import { errors } from '@vellum/errors';
import { jose } from './jose';

export interface Jwk extends JsonWebKey {
  kid?: string;
}
export interface JwkSet {
  keys: Jwk[];
}

/** A verification key: what jose's key sets hand out (CryptoKey), or a node:crypto public key. */
export type VerifyKey = webcrypto.CryptoKey | KeyObject;

/** Where public keys come from: a fixed set (auth itself, tests) or the auth service's JWKS, fetched and cached. */
export interface KeySource {
  /** The ES256 key for a kid; undefined when unknown (after a refetch, when one is allowed). */
  get(kid: string): Promise<VerifyKey | undefined>;
}

/** Where the auth service publishes its public keys (`AUTH_URL` = its internal base URL). */
export const jwksUrl = (authUrl: string): string => `${authUrl.replace(/\/$/, '')}/auth/.well-known/jwks.json`;

const header = (kid: string) => ({ alg: 'ES256', kid });
const isNoMatch = (e: unknown) => (e as { code?: string }).code === 'ERR_JWKS_NO_MATCHING_KEY';

/** A fixed key set (jose's local set: kid lookup, keys imported once), or a function read on each lookup (re-read when it returns a new set). */
export function staticKeySource(set: JwkSet | (() => JwkSet)): KeySource {
  let last: JwkSet | undefined;
  let local: Promise<(h: { alg: string; kid: string }) => Promise<VerifyKey>> | undefined;
  return {
    async get(kid) {
      const current = typeof set === 'function' ? set() : set;
      if (current !== last || !local) {
        last = current;
        local = jose().then((j) => j.createLocalJWKSet(current as Parameters<typeof j.createLocalJWKSet>[0]));
      }
      try {
        return await (
          await local
        )(header(kid));
      } catch (e) {
        if (isNoMatch(e)) return undefined;
        throw e;
      }
    },
  };
}

export interface RemoteKeySourceOptions {
  url: string;
  /** Do not refetch more often than this on unknown kids (ms): jose's cooldown. */
  minRefreshIntervalMs?: number;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}

/**
 * The auth service's JWKS through jose's remote key set: fetched on first use, then cached for good (no expiry:
 * the last key set keeps serving while auth is down); an unknown kid refetches it — at most once per
 * `minRefreshIntervalMs` (cooldown), concurrent lookups sharing one fetch — so key rotation needs no restart. A
 * failed fetch with nothing cached answers 503 SERVICE_UNAVAILABLE (bounded by the timeout); with a cached set,
 * the kid is simply unknown.
 */
export function remoteKeySource({ url, minRefreshIntervalMs = 5000, timeoutMs = 3000, fetchImpl }: RemoteKeySourceOptions): KeySource {
  const remote = jose().then((j) =>
    j.createRemoteJWKSet(new URL(url), {
      cacheMaxAge: Infinity,
      cooldownDuration: minRefreshIntervalMs,
      timeoutDuration: timeoutMs,
      ...(fetchImpl ? { [j.customFetch]: fetchImpl } : {}),
    }),
  );
  return {
    async get(kid) {
      const set = await remote;
      try {
        return await set(header(kid));
      } catch (e) {
        if (isNoMatch(e)) return undefined;
        if (!set.jwks()) throw errors.serviceUnavailable('auth', `cannot fetch the key set: ${(e as Error).message}`);
        return undefined;
      }
    },
  };
}
