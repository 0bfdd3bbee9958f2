import type { Response } from 'express';
import { serialize } from 'cookie';
import type { AuthConfig } from '../config';

const base = (config: AuthConfig) => ({
  httpOnly: true,
  path: '/',
  sameSite: 'lax' as const,
  secure: config.COOKIE_SECURE,
  ...(config.COOKIE_DOMAIN ? { domain: config.COOKIE_DOMAIN } : {}),
});

export function setCookie(res: Response, config: AuthConfig, name: string, value: string, maxAgeSeconds: number): void {
  res.append('Set-Cookie', serialize(name, value, { ...base(config), maxAge: maxAgeSeconds }));
}

export function clearCookie(res: Response, config: AuthConfig, name: string): void {
  res.append('Set-Cookie', serialize(name, '', { ...base(config), maxAge: 0, expires: new Date(0) }));
}
