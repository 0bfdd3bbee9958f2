import { serialize } from 'cookie';
import type { AuthConfig } from '../config';

// Auth's cookie policy (HttpOnly, SameSite=Lax, Secure per COOKIE_SECURE, COOKIE_DOMAIN): the Set-Cookie values the
// REST routes and the GraphQL mutations append to their answers.

const base = (config: AuthConfig) => ({
  httpOnly: true,
  path: '/',
  sameSite: 'lax' as const,
  secure: config.COOKIE_SECURE,
  ...(config.COOKIE_DOMAIN ? { domain: config.COOKIE_DOMAIN } : {}),
});

/** A `Set-Cookie` value carrying a refresh or session token for `maxAgeSeconds`. */
export function authCookie(config: AuthConfig, name: string, value: string, maxAgeSeconds: number): string {
  return serialize(name, value, { ...base(config), maxAge: maxAgeSeconds });
}

/** A `Set-Cookie` value that removes the cookie. */
export function expiredAuthCookie(config: AuthConfig, name: string): string {
  return serialize(name, '', { ...base(config), maxAge: 0, expires: new Date(0) });
}
