import { Router, type Request } from 'express';
import { apiTokenCreateSchema } from '@vellum/contracts';
import { errors } from '@vellum/errors';
import { route, type RouteTable } from '@vellum/http';
import { apiTokensUseCase } from '../domain/api-tokens.use-case';
import type { AuthContext } from '../domain/context';
import { isUuid } from '../domain/payload';
import { actorOf } from './request-helpers';

const me = (req: Request) => req.accountability!.user!;
const userParam = (req: Request) => {
  const id = String(req.params.id);
  if (!isUuid(id)) throw errors.forbidden();
  return id;
};

/**
 * API tokens (issue 14.2): `POST/GET /users/me/tokens`, `DELETE /users/me/tokens/:token`; admins create, list and
 * revoke any user's under `/users/:id/tokens`. The secret is in the creation answer only.
 */
export function apiTokensRoutes(ctx: AuthContext): Router & RouteTable {
  const r = Router() as Router & RouteTable;
  route(r, 'post', '/users/me/tokens', 'authenticated', { body: apiTokenCreateSchema }, async (req, res) => {
    res.json({ data: await apiTokensUseCase.create(ctx, me(req), req.body, actorOf(req)) });
  });
  route(r, 'get', '/users/me/tokens', 'authenticated', async (req, res) => {
    res.json({ data: await apiTokensUseCase.list(ctx, me(req)) });
  });
  route(r, 'delete', '/users/me/tokens/:token', 'authenticated', async (req, res) => {
    await apiTokensUseCase.revoke(ctx, me(req), String(req.params.token), actorOf(req));
    res.status(204).end();
  });
  route(r, 'post', '/users/:id/tokens', 'admin', { body: apiTokenCreateSchema }, async (req, res) => {
    res.json({ data: await apiTokensUseCase.create(ctx, userParam(req), req.body, actorOf(req)) });
  });
  route(r, 'get', '/users/:id/tokens', 'admin', async (req, res) => {
    res.json({ data: await apiTokensUseCase.list(ctx, userParam(req)) });
  });
  route(r, 'delete', '/users/:id/tokens/:token', 'admin', async (req, res) => {
    await apiTokensUseCase.revoke(ctx, userParam(req), String(req.params.token), actorOf(req));
    res.status(204).end();
  });
  return r;
}
