import { Router, type Request } from 'express';
import { errors } from '@vellum/errors';
import { route, type RouteTable } from '@vellum/http';
import type { AuthContext } from '../domain/context';
import { isUuid } from '../domain/payload';
import { sessionsUseCase } from '../domain/sessions.use-case';
import { actorOf } from './request-helpers';

const me = (req: Request) => req.accountability!.user!;
const current = (req: Request) => req.accountability?.sessionFamily ?? null;
/** The user of an admin route; a malformed id is a missing user (403, as `GET /users/:id`). */
const userParam = (req: Request) => {
  const id = String(req.params.id);
  if (!isUuid(id)) throw errors.forbidden();
  return id;
};

/**
 * Sessions (issue 14): `GET/DELETE /users/me/sessions[/:session]` for one's own (DELETE without an id ends every
 * other session: the current one stays), and the admin equivalents under `/users/:id/sessions` (DELETE without
 * an id ends all of them).
 */
export function sessionsRoutes(ctx: AuthContext): Router & RouteTable {
  const r = Router() as Router & RouteTable;
  route(r, 'get', '/users/me/sessions', 'authenticated', async (req, res) => {
    res.json({ data: await sessionsUseCase.list(ctx, me(req), current(req)) });
  });
  route(r, 'delete', '/users/me/sessions', 'authenticated', async (req, res) => {
    await sessionsUseCase.endAll(ctx, me(req), current(req), actorOf(req));
    res.status(204).end();
  });
  route(r, 'delete', '/users/me/sessions/:session', 'authenticated', async (req, res) => {
    await sessionsUseCase.end(ctx, me(req), String(req.params.session), actorOf(req));
    res.status(204).end();
  });
  route(r, 'get', '/users/:id/sessions', 'admin', async (req, res) => {
    res.json({ data: await sessionsUseCase.list(ctx, userParam(req), current(req)) });
  });
  route(r, 'delete', '/users/:id/sessions', 'admin', async (req, res) => {
    await sessionsUseCase.endAll(ctx, userParam(req), null, actorOf(req));
    res.status(204).end();
  });
  route(r, 'delete', '/users/:id/sessions/:session', 'admin', async (req, res) => {
    await sessionsUseCase.end(ctx, userParam(req), String(req.params.session), actorOf(req));
    res.status(204).end();
  });
  return r;
}
