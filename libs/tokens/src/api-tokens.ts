import { createHash } from 'node:crypto';
import { API_TOKENS_BUCKET, API_TOKEN_USES_BUCKET, type ApiTokenEntry } from '@vellum/contracts';
import { errors } from '@vellum/errors';
import { ISSUER, type AccessTokenClaims } from './claims';
import type { KeyValueSource, WatchableMap } from './key-value-source';
import { looksLikeJwt, type TokenVerifier } from './token-verifier';

/** The key of a token in the API-tokens map and the `api_tokens` table: SHA-256, hex (secrets have 256 bits). */
export const hashApiToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** An API (or static) token: anything presented as a bearer token that is not a JWT. */
export const isApiToken = (token: string): boolean => !looksLikeJwt(token);

/** A valid token's entry by the token's hash; undefined = unknown, revoked, or its user is not active. */
export type ApiTokenLookup = (hash: string) => ApiTokenEntry | undefined;
export type AsyncApiTokenLookup = (hash: string) => ApiTokenEntry | undefined | Promise<ApiTokenEntry | undefined>;

/**
 * Where the gateway and the services look API tokens up: `get`, the watched copy in memory; `fetch`, the bucket
 * itself, asked when the copy does not have the token — a token created a moment ago may not have reached the
 * watch yet, and must work at once. What `fetch` finds is not kept (the watch stays the one copy, so a
 * revocation that crosses the fetch cannot be undone by it).
 */
export interface ApiTokenSource {
  get: ApiTokenLookup;
  fetch?: (hash: string) => Promise<ApiTokenEntry | undefined>;
}

/** How long a bucket read for a token the copy does not know may take; then the token counts as unknown. */
export const API_TOKEN_FETCH_TIMEOUT_MS = 1000;

/** `source.get`, else what `fetch` finds within API_TOKEN_FETCH_TIMEOUT_MS (a failed or slow read: unknown). */
export async function findApiToken(source: ApiTokenSource, hash: string): Promise<ApiTokenEntry | undefined> {
  const known = source.get(hash);
  if (known || !source.fetch) return known;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, API_TOKEN_FETCH_TIMEOUT_MS, undefined)));
  try {
    return await Promise.race([source.fetch(hash).catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** 2100-01-01: the `exp` of a token that never expires (a static token). */
const NEVER = 4_102_444_800;

/**
 * The claims of an API token's entry, as if it were an access token (`api_token` = the token's id): unknown →
 * 401 INVALID_CREDENTIALS (as Directus answers an unknown static token), expired → 401 TOKEN_EXPIRED.
 */
export function apiTokenClaims(entry: ApiTokenEntry | undefined, nowMs: number): AccessTokenClaims {
  if (!entry) throw errors.invalidCredentials();
  const exp = entry.expires_at ? Math.floor(Date.parse(entry.expires_at) / 1000) : NEVER;
  if (entry.expires_at && nowMs >= Date.parse(entry.expires_at)) throw errors.tokenExpired();
  return { id: entry.user, role: entry.role, admin_access: entry.admin, app_access: entry.app, api_token: entry.id, iss: ISSUER, iat: 0, exp };
}

/** The claims of an API token's entry (see `apiTokenClaims`), reporting the use once it is accepted. */
export function acceptApiToken(entry: ApiTokenEntry | undefined, nowMs: number, onUse?: (entry: ApiTokenEntry) => void): AccessTokenClaims {
  const claims = apiTokenClaims(entry, nowMs);
  onUse?.(entry!);
  return claims;
}

export interface ApiTokenOptions {
  now?: () => number;
  /** Called on every accepted API-token request (throttle inside: see `tokenUseReporter`). */
  onUse?: (entry: ApiTokenEntry) => void;
}

/**
 * A verifier that also accepts API tokens: a JWT goes to `jwt`; anything else is looked up by its hash (an
 * in-memory map in the gateway and the services: no network round trip; the auth service reads its table).
 * Never cached beyond the lookup: the map itself is the verified cache, and a revocation removes the entry.
 */
export function withApiTokens(jwt: TokenVerifier, lookup: AsyncApiTokenLookup, { now = Date.now, onUse }: ApiTokenOptions = {}): TokenVerifier {
  return {
    async verify(token) {
      if (!isApiToken(token)) return jwt.verify(token);
      return acceptApiToken(await lookup(hashApiToken(token)), now(), onUse);
    },
  };
}

/** The API-tokens map mirrored into memory from a key-value watch (initial values included), and the bucket's own read. */
export interface ApiTokenMap extends ApiTokenSource {
  readonly size: number;
  stop(): Promise<void>;
}

export async function watchApiTokens(kv: WatchableMap<ApiTokenEntry> & { get?(key: string): Promise<ApiTokenEntry | undefined> }): Promise<ApiTokenMap> {
  const entries = new Map<string, ApiTokenEntry>();
  const sub = await kv.watch((key, value) => {
    if (value === undefined || value === null) entries.delete(key);
    else entries.set(key, value);
  });
  return {
    get: (hash) => entries.get(hash),
    ...(kv.get && { fetch: (hash: string) => kv.get!(hash) }),
    get size() {
      return entries.size;
    },
    stop: () => sub.stop(),
  };
}

/**
 * Reports token uses to the auth service (which records `last_used` and the `token_first_use` activity) at most
 * once per `intervalMs` per token and process; failures are ignored (the next use reports again).
 */
export function tokenUseReporter(put: (tokenId: string, use: { at: string }) => Promise<void>, intervalMs = 60_000, now = Date.now) {
  const last = new Map<string, number>();
  return (entry: ApiTokenEntry) => {
    const t = now();
    const prev = last.get(entry.id);
    if (prev !== undefined && t - prev < intervalMs) return;
    last.set(entry.id, t);
    if (last.size > 100_000) last.clear();
    put(entry.id, { at: new Date(t).toISOString() }).catch(() => last.delete(entry.id));
  };
}

/**
 * What the gateway and every service need for API tokens: the map of valid tokens (watched into memory) and a use
 * reporter writing to the token-uses map (auth records `last_used` and the first use from it).
 */
export async function apiTokensFrom(messaging: KeyValueSource): Promise<ApiTokenMap & { onUse: (entry: ApiTokenEntry) => void }> {
  const map = await watchApiTokens(await messaging.keyValue<ApiTokenEntry>(API_TOKENS_BUCKET));
  const uses = await messaging.keyValue<{ at: string }>(API_TOKEN_USES_BUCKET);
  const onUse = tokenUseReporter((id, use) => uses.put(id, use));
  return Object.assign(map, { onUse });
}
