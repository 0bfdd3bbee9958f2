import { Router, type Express, type RequestHandler } from 'express';
import { errors } from '@vellum/errors';
import { fastRoute, route, sendJson, type RouteTable } from '@vellum/http';
import type { Pool } from 'pg';
import { pastPointOf, type AsOfReader } from '../domain/as-of/as-of-reader';
import { compareRevisions, comparisonBody } from '../domain/compare/compare-revisions';
import { InexpressibleNull, jsonPatch, mergePatch } from '@vellum/contracts';
import type { AccessRules } from '../domain/visibility';

const JSON_PATCH = 'application/json-patch+json';
const MERGE_PATCH = 'application/merge-patch+json';

/** The patch media type the caller asked for (`Accept`), or undefined for the default JSON answer. */
function patchType(accept: string | undefined): typeof JSON_PATCH | typeof MERGE_PATCH | undefined {
  const types = (accept ?? '').split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  if (types.includes(JSON_PATCH)) return JSON_PATCH;
  if (types.includes(MERGE_PATCH)) return MERGE_PATCH;
  return undefined;
}

/**
 * History you can use: items as they were (`GET /items/:collection[/:id]?at=` / `?at_revision=`, which the gateway
 * sends here rather than to the items service: the past lives in this service's database) and the comparison of two
 * revisions (`GET /revisions/:a/compare/:b`). Public routes: the caller's role decides what it sees, as for revisions.
 * The reads as they were are answered on the app's fast lane, as the live items are by the items service.
 */
export function historyRoutes(reader: AsOfReader, deps: { pool: Pool; rules: AccessRules; authenticate: RequestHandler; app: Express }): Router & RouteTable {
  const router = Router() as Router & RouteTable;
  const before = [deps.authenticate];

  fastRoute(deps.app, { router, path: '/items/:collection', access: 'public', before }, async (req, res) => {
    const point = pastPointOf(req.query as Record<string, unknown>); // the app's query parser: always an object
    if (!point || !('at' in point)) throw errors.invalidQuery('A list of past states needs "at" (the live items are served by the items service).');
    sendJson(res, await reader.list(req.accountability, String(req.params.collection), point.at, req.query));
  });

  fastRoute(deps.app, { router, path: '/items/:collection/:id', access: 'public', before }, async (req, res) => {
    const point = pastPointOf(req.query as Record<string, unknown>); // the app's query parser: always an object
    if (!point) throw errors.invalidQuery('A past state needs "at" or "at_revision" (the live item is served by the items service).');
    sendJson(res, { data: await reader.one(req.accountability, String(req.params.collection), String(req.params.id), point, req.query) });
  });

  route(router, 'get', '/revisions/:a/compare/:b', 'public', { before }, async (req, res) => {
    const c = await compareRevisions(deps.pool, deps.rules, req.accountability, String(req.params.a), String(req.params.b));
    const type = patchType(req.headers.accept);
    res.setHeader('Vary', 'Accept');
    if (type === JSON_PATCH) {
      res.setHeader('Content-Type', `${JSON_PATCH}; charset=utf-8`);
      return sendJson(res, jsonPatch(c.from.state, c.to.state));
    }
    if (type === MERGE_PATCH) {
      let patch;
      try {
        patch = mergePatch(c.from.state, c.to.state);
      } catch (e) {
        if (e instanceof InexpressibleNull) throw errors.notAcceptable(`${e.message}; ask for ${JSON_PATCH} or application/json.`);
        throw e;
      }
      res.setHeader('Content-Type', `${MERGE_PATCH}; charset=utf-8`);
      return sendJson(res, patch);
    }
    sendJson(res, { data: comparisonBody(c) });
  });

  return router;
}
