import createClient from 'openapi-fetch';
import type { paths, components } from '../generated/api';

export type User = components['schemas']['User'];
export type Role = components['schemas']['Role'];
export type Permission = components['schemas']['Permission'];
export type Revision = components['schemas']['Revision'];
export type Activity = components['schemas']['Activity'];
export type Session = components['schemas']['Session'];
export type ApiToken = components['schemas']['ApiToken'];
export type Device = components['schemas']['Device'];

/** An error answer of the API (the contract's envelope), with the field it concerns when the API names one. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    readonly field?: string,
    /** The envelope's `extensions.reason` (which input was wrong, in words). */
    readonly reason?: string,
    /** The envelope's whole `extensions` (e.g. a proof-of-work challenge). */
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

interface Envelope {
  errors?: { message?: string; extensions?: { code?: string; field?: string; reason?: string; [k: string]: unknown } }[];
}

const isAuthCall = (url: string) => new URL(url, location.origin).pathname.startsWith('/auth/');

/**
 * The typed client: paths, parameters and bodies come from the gateway's OpenAPI document. Same origin with the
 * session cookie (HttpOnly: the page never holds a token); a session token lives as long as its cookie
 * (SESSION_COOKIE_TTL), so an expired or revoked one means signing in again (onSessionEnded).
 */
export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });

let sessionEnded: () => void = () => undefined;
/** Called when the API says the session is gone (expired, revoked by a suspension or a logout elsewhere). */
export function onSessionEnded(fn: () => void): void {
  sessionEnded = fn;
}

/** The data of an answer, or an ApiError carrying the envelope's first error. */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let r: { data?: T; error?: unknown; response: Response };
  try {
    r = await call;
  } catch {
    throw new ApiError('The server cannot be reached. Check your connection and try again.', 'NETWORK', 0);
  }
  if (r.response.ok) return r.data as T;
  const first = (r.error as Envelope | undefined)?.errors?.[0];
  const ext = first?.extensions ?? {};
  if (r.response.status === 401 && ext.code === 'TOKEN_EXPIRED' && !isAuthCall(r.response.url)) sessionEnded();
  throw new ApiError(first?.message ?? `Request failed (${r.response.status})`, ext.code ?? 'UNKNOWN', r.response.status, ext.field, ext.reason, ext);
}

/** A JSON query parameter (filter, deep) as the API reads it. */
export const json = (v: unknown) => JSON.stringify(v);

/** The data of a one-item answer and its `ETag` (the item's version, what `If-Match` takes), or an ApiError. */
export async function okWithVersion<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<{ data: T; etag?: string }> {
  const data = await ok(call);
  return { data, etag: (await call).response.headers.get('etag') ?? undefined };
}
