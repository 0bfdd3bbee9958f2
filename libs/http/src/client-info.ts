import type { Request } from 'express';

/** What an activity record keeps of the caller's client. */
export function clientInfo(req: Request): { ip: string | null; userAgent: string | null; origin: string | null } {
  return {
    ip: req.ip ?? null,
    userAgent: req.headers['user-agent'] ?? null,
    origin: req.headers.origin ?? null,
  };
}
