import { Router } from 'express';
import {
  permissionUpdateSchema,
  permissionsCreateSchema,
  roleUpdateSchema,
  rolesCreateSchema,
  searchRequestSchema,
  userSchema,
  userSelfSchema,
  usersCreateSchema,
} from '@vellum/contracts';
import { route, sendJson, type RouteOptions, type RouteTable } from '@vellum/http';
import type { AuthContext } from '../domain/context';
import { permissionsUseCase } from '../domain/permissions.use-case';
import { rolesUseCase } from '../domain/roles.use-case';
import { usersUseCase } from '../domain/users.use-case';
import type { Actor } from '../domain/auth-messages';
import { actorOf } from './request-helpers';

interface Crud {
  /** The query language (libs/query): `{data, meta?}`. */
  list(ctx: AuthContext, query: unknown): Promise<{ data: unknown[]; meta?: Record<string, number> }>;
  /** `query`: only its `fields`. */
  get(ctx: AuthContext, id: string, query: unknown): Promise<unknown>;
  create(ctx: AuthContext, body: unknown, actor: Actor): Promise<unknown>;
  update(ctx: AuthContext, id: string, body: unknown, actor: Actor): Promise<unknown>;
  /** `query`: options of the delete (roles: `move_users_to`). */
  remove(ctx: AuthContext, id: string, actor: Actor, query: Record<string, unknown>): Promise<void>;
}

interface Bodies {
  /** One object or an array of them. */
  create: NonNullable<RouteOptions['body']>;
  update: NonNullable<RouteOptions['body']>;
}

/**
 * Directus-shaped admin CRUD: `{data: …}`, lists `{data: […], meta?}` with the query language (GET with the query
 * string, SEARCH with `{"query": {…}}`), `fields` on one, POST of one object or an array, DELETE → 204.
 * Bodies are validated with the contract's schemas before anything is written (an array: every element first).
 */
function crud(r: Router & RouteTable, ctx: AuthContext, path: string, uc: Crud, bodies: Bodies) {
  route(r, 'get', path, 'admin', async (req, res) => {
    sendJson(res, await uc.list(ctx, req.query));
  });
  route(r, 'search', path, 'admin', { body: searchRequestSchema }, async (req, res) => {
    sendJson(res, await uc.list(ctx, req.body.query ?? {}));
  });
  route(r, 'get', `${path}/:id`, 'admin', async (req, res) => {
    sendJson(res, { data: await uc.get(ctx, String(req.params.id), req.query) });
  });
  route(r, 'post', path, 'admin', { body: bodies.create }, async (req, res) => {
    const actor = actorOf(req);
    if (Array.isArray(req.body)) {
      const out = [];
      for (const item of req.body) out.push(await uc.create(ctx, item, actor));
      sendJson(res, { data: out });
    } else {
      sendJson(res, { data: await uc.create(ctx, req.body, actor) });
    }
  });
  route(r, 'patch', `${path}/:id`, 'admin', { body: bodies.update }, async (req, res) => {
    sendJson(res, { data: await uc.update(ctx, String(req.params.id), req.body, actorOf(req)) });
  });
  route(r, 'delete', `${path}/:id`, 'admin', async (req, res) => {
    await uc.remove(ctx, String(req.params.id), actorOf(req), req.query as Record<string, unknown>);
    res.status(204).end();
  });
}

export function adminRoutes(ctx: AuthContext): Router & RouteTable {
  const r = Router() as Router & RouteTable;
  route(r, 'get', '/users/me', 'authenticated', async (req, res) => {
    sendJson(res, { data: await usersUseCase.me(ctx, req.accountability!.user!, req.query) });
  });
  route(r, 'patch', '/users/me', 'authenticated', { body: userSelfSchema }, async (req, res) => {
    sendJson(res, { data: await usersUseCase.updateMe(ctx, req.accountability!.user!, req.body, actorOf(req)) });
  });
  // before the admin CRUD's `/permissions/:id`: any signed-in user may read its own role's rules
  route(r, 'get', '/permissions/me', 'authenticated', async (req, res) => {
    sendJson(res, { data: await permissionsUseCase.mine(ctx, req.accountability!.role) });
  });
  crud(r, ctx, '/users', usersUseCase, { create: usersCreateSchema, update: userSchema });
  crud(r, ctx, '/roles', rolesUseCase, { create: rolesCreateSchema, update: roleUpdateSchema });
  crud(r, ctx, '/permissions', permissionsUseCase, { create: permissionsCreateSchema, update: permissionUpdateSchema });
  return r;
}
