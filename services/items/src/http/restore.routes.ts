import type { Router } from 'express';
import { errors } from '@vellum/errors';
import { route, sendJson, type RouteTable } from '@vellum/http';
import type { ItemsDeps } from '../domain/items-deps';
import { restoreRevision, type RevisionSource } from '../domain/restore-revision.use-case';

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** `?dry_run`: true, 1 or no value → a dry run; false, 0 or absent → the restore; anything else is refused (never guessed). */
function dryRunOf(v: unknown): boolean {
  if (v === undefined || v === 'false' || v === '0') return false;
  if (v === 'true' || v === '1' || v === '') return true;
  throw errors.invalidQuery('"dry_run" must be true or false.');
}

/** A restore takes no body: a client that put `dry_run` (or anything) there must not get a write it did not mean. */
function refuseBody(body: unknown): void {
  const empty = body === undefined || (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0);
  if (!empty) throw errors.invalidPayload('A restore takes no body (a dry run is ?dry_run=true).');
}

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
    refuseBody(req.body);
    const dryRun = dryRunOf(req.query.dry_run);
    const ctx = { accountability: req.accountability, now: deps.now(), requestId: req.requestId };
    sendJson(res, { data: await restoreRevision(deps, ctx, revisions, String(req.params.id), who, dryRun) });
  });
}
