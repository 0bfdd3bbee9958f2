import type { Request } from 'express';
import { errors } from '@vellum/errors';
import { clientInfo } from '@vellum/http';
import type { AuthConfig } from '../config';
import { MODES, type ClientInfo, type Mode } from '../domain/context';
import type { Actor } from '../events/auth-events';

export const client = (req: Request): ClientInfo => clientInfo(req);

export const actorOf = (req: Request): Actor => ({
  user: req.accountability?.user ?? null,
  role: req.accountability?.role ?? null,
  ...clientInfo(req),
});

export function body(req: Request): Record<string, unknown> {
  const b = req.body as unknown;
  if (b === undefined || b === null) return {};
  if (typeof b !== 'object' || Array.isArray(b)) throw errors.invalidPayload('"body" must be an object');
  return b as Record<string, unknown>;
}

export function parseMode(value: unknown, fallback: Mode): Mode {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string' || !(MODES as readonly string[]).includes(value)) {
    throw errors.invalidPayload(`"mode" must be one of [${MODES.join(', ')}]`);
  }
  return value as Mode;
}

/**
 * Cookie-carried credentials must not be usable cross-site: a `Sec-Fetch-Site: cross-site` request or an Origin
 * other than PUBLIC_URL's is refused with 403 FORBIDDEN.
 */
export function assertSameSite(req: Request, config: AuthConfig): void {
  if (req.get('sec-fetch-site') === 'cross-site') throw errors.forbidden();
  const origin = req.get('origin');
  if (origin && origin !== new URL(config.PUBLIC_URL).origin) throw errors.forbidden();
}

/** A required string field of a body: missing → INVALID_PAYLOAD "is required", other type → "must be a string". */
export function requiredField(b: Record<string, unknown>, name: string): string {
  const v = b[name];
  if (v === undefined || v === null) throw errors.invalidPayload(`"${name}" is required`);
  if (typeof v !== 'string') throw errors.invalidPayload(`"${name}" must be a string`);
  return v;
}
