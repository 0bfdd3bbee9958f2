import { Router, type Request } from 'express';
import { collectionRequestSchema } from '@vellum/contracts';
import { route, sendJson, type RouteTable } from '@vellum/http';
import type { CollectionsUseCase } from '../domain/collections.use-case';
import type { ChangeContext } from '../domain/item-change';

export function collectionsRoutes(router: Router & Partial<RouteTable>, collections: CollectionsUseCase, now: () => Date) {
  const ctxOf = (req: Request): ChangeContext => ({ accountability: req.accountability, now: now(), requestId: req.requestId });
  route(router, 'post', '/collections', 'admin', { body: collectionRequestSchema }, async (req, res) => {
    sendJson(res, { data: await collections.create(ctxOf(req), req.body) });
  });
  // Listing is open to every caller, filtered by what their role may use (admins: everything).
  route(router, 'get', '/collections', 'public', async (req, res) => {
    sendJson(res, { data: await collections.list(req.accountability) });
  });
  route(router, 'get', '/collections/:name', 'public', async (req, res) => {
    sendJson(res, { data: await collections.get(req.accountability, String(req.params.name)) });
  });
  route(router, 'delete', '/collections/:name', 'admin', async (req, res) => {
    await collections.delete(ctxOf(req), String(req.params.name));
    res.status(204).end();
  });
}
