import type { Request } from 'express';
import { clientInfo } from '@vellum/http';
import type { Actor } from '../domain/auth-messages';
import type { ClientInfo } from '../domain/context';
import type { PresentedRequest } from '../domain/token-answers.use-case';

export const client = (req: Request): ClientInfo => clientInfo(req);

/** The request's headers and client, as the login/refresh/logout use cases read them. */
export const presented = (req: Request): PresentedRequest => ({ headers: req.headers, client: clientInfo(req) });

export const actorOf = (req: Request): Actor => ({
  user: req.accountability?.user ?? null,
  role: req.accountability?.role ?? null,
  ...clientInfo(req),
});
