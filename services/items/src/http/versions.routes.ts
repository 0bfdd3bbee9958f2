import type { Request, Router } from 'express';
import { searchRequestSchema, versionCreateSchema, versionPromoteSchema, versionSaveSchema, versionUpdateSchema } from '@vellum/contracts';
import { route, sendJson, type RouteTable } from '@vellum/http';
import type { ChangeContext } from '../domain/item-change';
import type { ItemsDeps } from '../domain/items-deps';
import { readVersion, readVersions } from '../domain/read-versions';
import type { VersionsUseCase } from '../domain/versions.use-case';
import { ifMatchOf } from './item-version-headers';

/**
 * `/versions` (content versions, Directus 11 shape). Every route is open to all callers and checks the caller's
 * rights on the version's collection itself: read to see a version, update to create, change, save, promote or
 * schedule it.
 */
export function versionsRoutes(router: Router & Partial<RouteTable>, deps: ItemsDeps, versions: VersionsUseCase, onScheduled?: () => void) {
  const ctxOf = (req: Request): ChangeContext => ({ accountability: req.accountability, now: deps.now(), requestId: req.requestId });
  const id = (req: Request) => String(req.params.id);

  route(router, 'get', '/versions', 'public', async (req, res) => {
    sendJson(res, await readVersions(deps, req.accountability, req.query));
  });
  route(router, 'search', '/versions', 'public', { body: searchRequestSchema }, async (req, res) => {
    sendJson(res, await readVersions(deps, req.accountability, req.body.query ?? {}));
  });
  route(router, 'post', '/versions', 'public', { body: versionCreateSchema }, async (req, res) => {
    const created = await versions.create(ctxOf(req), Array.isArray(req.body) ? req.body : [req.body]);
    sendJson(res, { data: Array.isArray(req.body) ? created : created[0] });
  });
  route(router, 'get', '/versions/:id', 'public', async (req, res) => {
    sendJson(res, { data: await readVersion(deps, req.accountability, id(req), req.query) });
  });
  route(router, 'patch', '/versions/:id', 'public', { body: versionUpdateSchema }, async (req, res) => {
    sendJson(res, { data: await versions.update(ctxOf(req), id(req), req.body, onScheduled) });
  });
  route(router, 'delete', '/versions/:id', 'public', async (req, res) => {
    await versions.delete(ctxOf(req), id(req));
    res.status(204).end();
  });
  route(router, 'post', '/versions/:id/save', 'public', { body: versionSaveSchema }, async (req, res) => {
    sendJson(res, { data: await versions.save(ctxOf(req), id(req), req.body) });
  });
  // `mainHash` is also the item's ETag: a client may send it back as If-Match
  route(router, 'get', '/versions/:id/compare', 'public', async (req, res) => {
    const compared = await versions.compare(req.accountability, id(req));
    res.setHeader('ETag', `"${compared.mainHash}"`);
    sendJson(res, { data: compared });
  });
  route(router, 'post', '/versions/:id/promote', 'public', { body: versionPromoteSchema }, async (req, res) => {
    const { key, version } = await versions.promote(ctxOf(req), id(req), req.body, ifMatchOf(req));
    res.setHeader('ETag', `"${version}"`); // the item's new hash
    sendJson(res, { data: key });
  });
}
