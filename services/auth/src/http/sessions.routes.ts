import { Router, type Request } from 'express';
import { route, sendJson, type RouteTable } from '@vellum/http';
import type { AuthContext } from '../domain/context';
import { sessionsUseCase } from '../domain/sessions.use-case';
import { actorOf, userScopes } from './request-helpers';

const current = (req: Request) => req.accountability?.sessionFamily ?? null;

/**
 * Sessions: `GET/DELETE /users/me/sessions[/:session]` for one's own (DELETE without an id ends every
 * other session: the current one stays), and the admin equivalents under `/users/:id/sessions` (DELETE without
 * an id ends all of them).
 */
export function sessionsRoutes(ctx: AuthContext): Router & RouteTable {
  const r = Router() as Router & RouteTable;
  for (const { base, access, user, own } of userScopes) {
    route(r, 'get', `${base}/sessions`, access, async (req, res) => {
      sendJson(res, { data: await sessionsUseCase.list(ctx, user(req), current(req)) });
    });
    route(r, 'delete', `${base}/sessions`, access, async (req, res) => {
      await sessionsUseCase.endAll(ctx, user(req), own ? current(req) : null, actorOf(req));
      res.status(204).end();
    });
    route(r, 'delete', `${base}/sessions/:session`, access, async (req, res) => {
      await sessionsUseCase.end(ctx, user(req), String(req.params.session), actorOf(req));
      res.status(204).end();
    });
  }
  return r;
}
