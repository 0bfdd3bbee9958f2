import type { Request, Router } from 'express';
import { relationCreateSchema, relationUpdateSchema } from '@vellum/contracts';
import { route, sendJson, type RouteTable } from '@vellum/http';
import type { ChangeContext } from '../domain/item-change';
import type { RelationsUseCase } from '../domain/relations.use-case';

/** The relations API (Directus shape): reading open to every caller (filtered by what it may use), changes admin only. */
export function relationsRoutes(router: Router & Partial<RouteTable>, relations: RelationsUseCase, now: () => Date) {
  const ctxOf = (req: Request): ChangeContext => ({ accountability: req.accountability, now: now(), requestId: req.requestId });
  const p = (req: Request, name: string) => String(req.params[name]);

  route(router, 'get', '/relations', 'public', async (req, res) => {
    sendJson(res, { data: await relations.list(req.accountability) });
  });
  route(router, 'get', '/relations/:collection', 'public', async (req, res) => {
    sendJson(res, { data: await relations.list(req.accountability, p(req, 'collection')) });
  });
  route(router, 'get', '/relations/:collection/:field', 'public', async (req, res) => {
    sendJson(res, { data: await relations.get(req.accountability, p(req, 'collection'), p(req, 'field')) });
  });
  route(router, 'post', '/relations', 'admin', { body: relationCreateSchema }, async (req, res) => {
    sendJson(res, { data: await relations.create(ctxOf(req), req.body) });
  });
  route(router, 'patch', '/relations/:collection/:field', 'admin', { body: relationUpdateSchema }, async (req, res) => {
    sendJson(res, { data: await relations.update(ctxOf(req), p(req, 'collection'), p(req, 'field'), req.body) });
  });
  route(router, 'delete', '/relations/:collection/:field', 'admin', async (req, res) => {
    await relations.delete(ctxOf(req), p(req, 'collection'), p(req, 'field'));
    res.status(204).end();
  });
}
