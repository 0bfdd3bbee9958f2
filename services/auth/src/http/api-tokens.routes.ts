import { Router } from 'express';
import { apiTokenCreateSchema } from '@vellum/contracts';
import { route, sendJson, type RouteTable } from '@vellum/http';
import { apiTokensUseCase } from '../domain/api-tokens.use-case';
import type { AuthContext } from '../domain/context';
import { actorOf, userScopes } from './request-helpers';

/**
 * API tokens: `POST/GET /users/me/tokens`, `DELETE /users/me/tokens/:token`; admins create, list and
 * revoke any user's under `/users/:id/tokens`. The secret is in the creation answer only.
 */
export function apiTokensRoutes(ctx: AuthContext): Router & RouteTable {
  const r = Router() as Router & RouteTable;
  for (const { base, access, user } of userScopes) {
    route(r, 'post', `${base}/tokens`, access, { body: apiTokenCreateSchema }, async (req, res) => {
      sendJson(res, { data: await apiTokensUseCase.create(ctx, user(req), req.body, actorOf(req)) });
    });
    route(r, 'get', `${base}/tokens`, access, async (req, res) => {
      sendJson(res, { data: await apiTokensUseCase.list(ctx, user(req)) });
    });
    route(r, 'delete', `${base}/tokens/:token`, access, async (req, res) => {
      await apiTokensUseCase.revoke(ctx, user(req), String(req.params.token), actorOf(req));
      res.status(204).end();
    });
  }
  return r;
}
