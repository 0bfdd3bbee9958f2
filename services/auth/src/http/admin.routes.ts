import { Router } from 'express';
import { permissionUpdateSchema, permissionsCreateSchema, roleUpdateSchema, rolesCreateSchema, userSchema, userSelfSchema, usersCreateSchema } from '@vellum/contracts';
import { route, type RouteOptions, type RouteTable } from '@vellum/http';
import type { AuthContext } from '../domain/context';
import { permissionsUseCase } from '../domain/permissions.use-case';
import { rolesUseCase } from '../domain/roles.use-case';
import { usersUseCase } from '../domain/users.use-case';
import type { Actor } from '../events/auth-events';
import { actorOf } from './request-helpers';

interface Crud {
  list(ctx: AuthContext, query: Record<string, unknown>): Promise<unknown[]>;
  get(ctx: AuthContext, id: string): Promise<unknown>;
  create(ctx: AuthContext, body: unknown, actor: Actor): Promise<unknown>;
  update(ctx: AuthContext, id: string, body: unknown, actor: Actor): Promise<unknown>;
  remove(ctx: AuthContext, id: string, actor: Actor): Promise<void>;
}

interface Bodies {
  /** One object or an array of them. */
  create: NonNullable<RouteOptions['body']>;
  update: NonNullable<RouteOptions['body']>;
}

/**
 * Directus-shaped admin CRUD: `{data: …}`, lists `{data: […]}`, POST of one object or an array, DELETE → 204.
 * Bodies are validated with the contract's schemas before anything is written (an array: every element first).
 */
function crud(r: Router & RouteTable, ctx: AuthContext, path: string, uc: Crud, bodies: Bodies) {
  route(r, 'get', path, 'admin', async (req, res) => {
    res.json({ data: await uc.list(ctx, req.query as Record<string, unknown>) });
  });
  route(r, 'get', `${path}/:id`, 'admin', async (req, res) => {
    res.json({ data: await uc.get(ctx, String(req.params.id)) });
  });
  route(r, 'post', path, 'admin', { body: bodies.create }, async (req, res) => {
    const actor = actorOf(req);
    if (Array.isArray(req.body)) {
      const out = [];
      for (const item of req.body) out.push(await uc.create(ctx, item, actor));
      res.json({ data: out });
    } else {
      res.json({ data: await uc.create(ctx, req.body, actor) });
    }
  });
  route(r, 'patch', `${path}/:id`, 'admin', { body: bodies.update }, async (req, res) => {
    res.json({ data: await uc.update(ctx, String(req.params.id), req.body, actorOf(req)) });
  });
  route(r, 'delete', `${path}/:id`, 'admin', async (req, res) => {
    await uc.remove(ctx, String(req.params.id), actorOf(req));
    res.status(204).end();
  });
}

export function adminRoutes(ctx: AuthContext): Router & RouteTable {
  const r = Router() as Router & RouteTable;
  route(r, 'get', '/users/me', 'authenticated', async (req, res) => {
    res.json({ data: await usersUseCase.me(ctx, req.accountability!.user!) });
  });
  route(r, 'patch', '/users/me', 'authenticated', { body: userSelfSchema }, async (req, res) => {
    res.json({ data: await usersUseCase.updateMe(ctx, req.accountability!.user!, req.body, actorOf(req)) });
  });
  crud(r, ctx, '/users', usersUseCase, { create: usersCreateSchema, update: userSchema });
  crud(r, ctx, '/roles', rolesUseCase, { create: rolesCreateSchema, update: roleUpdateSchema });
  crud(r, ctx, '/permissions', permissionsUseCase, { create: permissionsCreateSchema, update: permissionUpdateSchema });
  return r;
}
