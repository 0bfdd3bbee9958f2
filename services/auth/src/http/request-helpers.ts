import type { Request } from 'express';
import { errors } from '@vellum/errors';
import { clientInfo } from '@vellum/http';
import type { AuthConfig } from '../config';
import type { ClientInfo } from '../domain/context';
import type { Actor } from '../events/auth-events';

export const client = (req: Request): ClientInfo => clientInfo(req);

export const actorOf = (req: Request): Actor => ({
  user: req.accountability?.user ?? null,
  role: req.accountability?.role ?? null,
  ...clientInfo(req),
});

/**
 * Cookie-carried credentials must not be usable cross-site: a `Sec-Fetch-Site: cross-site` request or an Origin
 * other than PUBLIC_URL's is refused with 403 FORBIDDEN.
 */
export function assertSameSite(req: Request, config: AuthConfig): void {
  if (req.get('sec-fetch-site') === 'cross-site') throw errors.forbidden();
  const origin = req.get('origin');
  if (origin && origin !== new URL(config.PUBLIC_URL).origin) throw errors.forbidden();
}
