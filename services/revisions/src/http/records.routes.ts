import { Router, type Express, type RequestHandler } from 'express';
import { searchRequestSchema } from '@vellum/contracts';
import { fastRoute, rawJson, route, sendJson, sendJsonText, type RouteTable } from '@vellum/http';
import type { Entity, RecordsReader } from '../domain/records-reader';
import { behindHeader, parseMinVersion, waitForVersions } from '../domain/min-version';
import type { Pool } from 'pg';
import type { ServerResponse, IncomingMessage } from 'node:http';

/**
 * `X-Vellum-Min-Version` (read your own write): the list waits, at most `maxWaitMs`, until those items' revisions
 * are recorded, then answers what it has, with `X-Vellum-Behind` naming what was not recorded yet. Without the
 * header, nothing is done (no query).
 */
export interface MinVersionWait {
  pool: Pool;
  maxWaitMs: number;
}

async function awaitMinVersion(req: IncomingMessage, res: ServerResponse, wait: MinVersionWait | undefined): Promise<void> {
  const header = req.headers['x-vellum-min-version'];
  if (header === undefined || wait === undefined) return;
  const missing = await waitForVersions(wait.pool, parseMinVersion(String(header)), wait.maxWaitMs);
  if (missing.length) res.setHeader('X-Vellum-Behind', behindHeader(missing));
}

const hasAfter = (q: unknown) => typeof q === 'object' && q !== null && Object.hasOwn(q, 'after');
/** The query string exactly as the URL has it (what `req.query` was parsed from): the plan cache's key. */
const queryText = (url: string) => {
  const i = url.indexOf('?');
  return i === -1 ? '' : url.slice(i + 1);
};

/**
 * `data`/`delta` go from the database's JSON text to the response as is (rawJson + sendJson: no parse, no stringify);
 * a list's whole body is written as JSON text straight from the rows (`listText`).
 * GET/SEARCH /revisions, GET /revisions/:id and the same for /activity (contract §5). Public routes: the
 * caller's role (the public role for anonymous callers) decides what they see. Writes have no route (404).
 */
export function recordsRoutes(reader: RecordsReader, lane: { app: Express; authenticate: RequestHandler }, minVersion?: MinVersionWait): Router & RouteTable {
  const before = [lane.authenticate];
  const router = Router() as Router & RouteTable;
  for (const entity of ['revisions', 'activity'] as Entity[]) {
    // the lists: the app's fast lane answers them
    fastRoute(lane.app, { router, path: `/${entity}`, access: 'public', before }, async (req, res) => {
      await awaitMinVersion(req, res, minVersion);
      const cacheKey = `GET ${queryText(req.originalUrl)}`;
      sendJsonText(
        res,
        await reader.listText(entity, req.accountability, reader.parse(req.query), { withCursor: hasAfter(req.query), jsonText: rawJson, cacheKey }),
      );
    });
    // The query in the body (`searchRequestSchema`: no body or no `query` is the empty query).
    fastRoute(lane.app, { router, method: 'search', path: `/${entity}`, access: 'public', body: searchRequestSchema, before }, async (req, res) => {
      await awaitMinVersion(req, res, minVersion);
      const q = req.body.query ?? {};
      const cacheKey = `SEARCH ${JSON.stringify(q)}`;
      sendJsonText(res, await reader.listText(entity, req.accountability, reader.parse(q), { withCursor: hasAfter(q), jsonText: rawJson, cacheKey }));
    });
    route(router, 'get', `/${entity}/:id`, 'public', { before }, async (req, res) => {
      const id = String(req.params.id);
      sendJson(res, { data: await reader.one(entity, req.accountability, id, reader.parse({ fields: req.query.fields }), { jsonText: rawJson }) });
    });
  }
  return router;
}
