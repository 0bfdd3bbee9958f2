import { Router, type Request } from 'express';
import { errors } from '@vellum/errors';
import { route, type RouteTable } from '@vellum/http';
import type { Entity, RecordsReader } from '../domain/records-reader';

const hasAfter = (q: unknown) => typeof q === 'object' && q !== null && Object.hasOwn(q, 'after');

function searchBody(req: Request): unknown {
  const body: unknown = req.body;
  if (body === undefined || body === null || (typeof body === 'object' && Object.keys(body).length === 0)) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw errors.invalidPayload('The body must be an object.');
  const q = (body as { query?: unknown }).query;
  if (q === undefined) return {};
  if (typeof q !== 'object' || q === null || Array.isArray(q)) throw errors.invalidPayload('"query" must be an object.');
  return q;
}

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
    route(router, 'search', `/${entity}`, 'public', async (req, res) => {
      const q = searchBody(req);
      res.json(await reader.list(entity, req.accountability, reader.parse(q), hasAfter(q)));
    });
    route(router, 'get', `/${entity}/:id`, 'public', async (req, res) => {
      const id = String(req.params.id);
      res.json({ data: await reader.one(entity, req.accountability, id, reader.parse({ fields: req.query.fields })) });
    });
  }
  return router;
}
