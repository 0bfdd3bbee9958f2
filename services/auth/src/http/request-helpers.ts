import type { Request } from 'express';
import { errors } from '@vellum/errors';
import { clientInfo } from '@vellum/http';
import type { Actor } from '../domain/auth-messages';
import type { ClientInfo } from '../domain/context';
import { isUuid } from '../domain/payload';
import type { PresentedRequest } from '../domain/token-answers.use-case';

export const client = (req: Request): ClientInfo => clientInfo(req);

/** The request's headers and client, as the login/refresh/logout use cases read them. */
export const presented = (req: Request): PresentedRequest => ({ headers: req.headers, client: clientInfo(req) });

export const actorOf = (req: Request): Actor => ({
  user: req.accountability?.user ?? null,
  role: req.accountability?.role ?? null,
  ...clientInfo(req),
});

/**
 * Whose sessions or API tokens a route is about: one's own under `/users/me` (authenticated), any user's under
 * `/users/:id` (admin; a malformed id is a missing user: 403, as `GET /users/:id`).
 */
export const userScopes = [
  { base: '/users/me', access: 'authenticated', user: (req: Request) => req.accountability!.user!, own: true },
  {
    base: '/users/:id',
    access: 'admin',
    user: (req: Request) => {
      const id = String(req.params.id);
      if (!isUuid(id)) throw errors.forbidden();
      return id;
    },
    own: false,
  },
] as const;
