import type { Router } from 'express';
import { route, sendJson, type RouteTable } from '@vellum/http';
import type { ItemsDeps } from '../domain/items-deps';
import { restoreRevision, type RevisionSource } from '../domain/restore-revision.use-case';

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * `POST /revisions/:id/restore[?dry_run=true]` — the gateway sends it here (a restore is a write of the item); the
 * revision itself is read from the revisions service with the caller's own credentials.
 */
export function restoreRoutes(router: Router & Partial<RouteTable>, deps: ItemsDeps, revisions: RevisionSource) {
  route(router, 'post', '/revisions/:id/restore', 'public', async (req, res) => {
    const token = req.query.access_token;
    const who = {
      authorization: header(req.headers.authorization),
      cookie: header(req.headers.cookie),
      accessToken: typeof token === 'string' ? token : undefined,
      requestId: req.requestId,
    };
    const dryRun = req.query.dry_run === 'true' || req.query.dry_run === '1';
    const ctx = { accountability: req.accountability, now: deps.now(), requestId: req.requestId };
    sendJson(res, { data: await restoreRevision(deps, ctx, revisions, String(req.params.id), who, dryRun) });
  });
}
