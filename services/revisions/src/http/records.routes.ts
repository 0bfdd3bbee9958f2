import { Router } from 'express';
import { searchRequestSchema } from '@vellum/contracts';
import { route, type RouteTable } from '@vellum/http';
import type { Entity, RecordsReader } from '../domain/records-reader';

const hasAfter = (q: unknown) => typeof q === 'object' && q !== null && Object.hasOwn(q, 'after');

/**
 * GET/SEARCH /revisions, GET /revisions/:id and the same for /activity (contract §5). Public routes: the
 * caller's role (the public role for anonymous callers) decides what they see. Writes have no route (404).
 */
export function recordsRoutes(reader: RecordsReader): Router & RouteTable {
  const router = Router() as Router & RouteTable;
  for (const entity of ['revisions', 'activity'] as Entity[]) {
    route(router, 'get', `/${entity}`, 'public', async (req, res) => {
      res.json(await reader.list(entity, req.accountability, reader.parse(req.query), hasAfter(req.query)));
    });
    // The query in the body (`searchRequestSchema`: no body or no `query` is the empty query).
    route(router, 'search', `/${entity}`, 'public', { body: searchRequestSchema }, async (req, res) => {
      const q = req.body.query ?? {};
      res.json(await reader.list(entity, req.accountability, reader.parse(q), hasAfter(q)));
    });
    route(router, 'get', `/${entity}/:id`, 'public', async (req, res) => {
      const id = String(req.params.id);
      res.json({ data: await reader.one(entity, req.accountability, id, reader.parse({ fields: req.query.fields })) });
    });
  }
  return router;
}
