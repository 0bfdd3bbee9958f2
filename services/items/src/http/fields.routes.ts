import type { Request, Router } from 'express';
import { collectionUpdateSchema, fieldCreateSchema, fieldUpdateSchema } from '@vellum/contracts';
import { route, sendJson, type RouteTable } from '@vellum/http';
import type { FieldsUseCase } from '../domain/fields.use-case';
import type { ChangeContext } from '../domain/item-change';

/** The schema API (Directus shape), admin only: `/fields` and `PATCH /collections/:name`. */
export function fieldsRoutes(router: Router & Partial<RouteTable>, fields: FieldsUseCase, now: () => Date) {
  const ctxOf = (req: Request): ChangeContext => ({ accountability: req.accountability, now: now(), requestId: req.requestId });
  const p = (req: Request, name: string) => String(req.params[name]);

  route(router, 'get', '/fields', 'admin', async (_req, res) => {
    sendJson(res, { data: await fields.list() });
  });
  route(router, 'get', '/fields/:collection', 'admin', async (req, res) => {
    sendJson(res, { data: await fields.list(p(req, 'collection')) });
  });
  route(router, 'get', '/fields/:collection/:field', 'admin', async (req, res) => {
    sendJson(res, { data: await fields.get(p(req, 'collection'), p(req, 'field')) });
  });
  route(router, 'post', '/fields/:collection', 'admin', { body: fieldCreateSchema }, async (req, res) => {
    sendJson(res, { data: await fields.create(ctxOf(req), p(req, 'collection'), req.body) });
  });
  route(router, 'patch', '/fields/:collection/:field', 'admin', { body: fieldUpdateSchema }, async (req, res) => {
    sendJson(res, { data: await fields.update(ctxOf(req), p(req, 'collection'), p(req, 'field'), req.body) });
  });
  route(router, 'delete', '/fields/:collection/:field', 'admin', async (req, res) => {
    await fields.delete(ctxOf(req), p(req, 'collection'), p(req, 'field'));
    res.status(204).end();
  });
  route(router, 'patch', '/collections/:name', 'admin', { body: collectionUpdateSchema }, async (req, res) => {
    sendJson(res, { data: await fields.updateCollection(ctxOf(req), p(req, 'name'), req.body) });
  });
}
