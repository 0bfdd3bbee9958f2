import type { ServerResponse } from 'node:http';
import type { Express, RequestHandler, Router } from 'express';
import { itemUpdateSchema, itemsCreateSchema, itemsUpdateSchema, searchRequestSchema } from '@vellum/contracts';
import { errors } from '@vellum/errors';
import { fastRoute, sendJson, sendJsonText, type LaneRequest, type RouteTable } from '@vellum/http';
import { createItems } from '../domain/create-items.use-case';
import { deleteItems } from '../domain/delete-items.use-case';
import type { ChangeContext } from '../domain/item-change';
import type { ItemsDeps } from '../domain/items-deps';
import { readBack, readItem, readItemsText } from '../domain/read-items.use-case';
import { updateItems, type ItemUpdate } from '../domain/update-items.use-case';
import { isPlainObject } from '../domain/validate-write';
import { ifMatchOf, refuseListPrecondition, setVersionHeaders } from './item-version-headers';

const ctxOf = (deps: ItemsDeps, req: LaneRequest): ChangeContext => ({ accountability: req.accountability, now: deps.now(), requestId: req.requestId });
const collectionOf = (req: LaneRequest) => String(req.params.collection);
const noContent = (res: ServerResponse) => {
  res.statusCode = 204;
  res.end();
};

/**
 * The items routes: every one is open to all callers and checks the caller's permissions itself. One-item reads
 * and writes carry the item's version (ETag); one-item PATCH and DELETE honour `If-Match` (412 on another version).
 * The app's fast lane answers them (node's request and response, no express helper): `lane.authenticate` is the
 * router's own authentication, which the lane runs first.
 */
export function itemsRoutes(router: Router & Partial<RouteTable>, deps: ItemsDeps, lane: { app: Express; authenticate: RequestHandler }) {
  const route = (method: 'get' | 'search' | 'post' | 'patch' | 'delete', path: string) => ({
    router,
    method,
    path,
    access: 'public' as const,
    routerBefore: [lane.authenticate],
  });
  fastRoute(lane.app, route('get', '/items/:collection'), async (req, res) => {
    sendJsonText(res, await readItemsText(deps, req.accountability, collectionOf(req), req.query));
  });

  fastRoute(lane.app, { ...route('search', '/items/:collection'), body: searchRequestSchema }, async (req, res) => {
    const q = req.query as Record<string, unknown>;
    // `?version=<key>` in the URL (as Directus takes it), the rest of the query in the body
    const version = q.version;
    const query = { ...(req.body.query ?? {}), ...(version !== undefined ? { version } : {}) };
    sendJsonText(res, await readItemsText(deps, req.accountability, collectionOf(req), query));
  });

  fastRoute(lane.app, route('get', '/items/:collection/:id'), async (req, res) => {
    const { item, key, version, versioned } = await readItem(deps, req.accountability, collectionOf(req), req.params.id, req.query);
    // a versioned read (`?version=<key>`) is not the item at its version: no ETag for it
    if (!versioned) setVersionHeaders(res, collectionOf(req), key, version);
    sendJson(res, { data: item });
  });

  fastRoute(lane.app, { ...route('post', '/items/:collection'), body: itemsCreateSchema }, async (req, res) => {
    const { def, keys, rows, versions } = await createItems(deps, ctxOf(deps, req), collectionOf(req), req.body);
    if (!Array.isArray(req.body)) setVersionHeaders(res, def.collection, keys[0], versions[0]);
    const items = await readBack(deps, req.accountability, def, keys, req.query, rows);
    if (!items) return noContent(res);
    sendJson(res, { data: Array.isArray(req.body) ? items : (items[0] ?? null) });
  });

  fastRoute(lane.app, { ...route('patch', '/items/:collection/:id'), body: itemUpdateSchema }, async (req, res) => {
    const update = [{ key: req.params.id, data: req.body }];
    const { def, keys, rows, versions } = await updateItems(deps, ctxOf(deps, req), collectionOf(req), update, ifMatchOf(req));
    setVersionHeaders(res, def.collection, keys[0], versions[0]);
    const items = await readBack(deps, req.accountability, def, keys, req.query, rows);
    if (!items) return noContent(res);
    sendJson(res, { data: items[0] ?? null });
  });

  // `{keys, data}` (the same change to several items) or an array of items that carry their primary key.
  fastRoute(lane.app, { ...route('patch', '/items/:collection'), body: itemsUpdateSchema }, async (req, res) => {
    refuseListPrecondition(req);
    const body = req.body;
    const updates: ItemUpdate[] = Array.isArray(body)
      ? body.map((data) => ({ data })) // each item names itself by its primary key
      : [...new Set(body.keys.map((k) => (typeof k === 'number' ? String(k) : k)))].map((key) => ({ key, data: body.data }));
    const ctx = ctxOf(deps, req);
    const collection = collectionOf(req);
    const { def, keys, rows } = await updateItems(deps, ctx, collection, updates);
    const items = await readBack(deps, req.accountability, def, keys, req.query, rows);
    if (!items) return noContent(res);
    sendJson(res, { data: items });
  });

  fastRoute(lane.app, route('delete', '/items/:collection/:id'), async (req, res) => {
    const [deleted] = await deleteItems(deps, ctxOf(deps, req), collectionOf(req), [req.params.id], ifMatchOf(req));
    if (deleted) setVersionHeaders(res, collectionOf(req), deleted.key, deleted.version);
    noContent(res);
  });

  // A keys array, or `{keys: [...]}`.
  fastRoute(lane.app, route('delete', '/items/:collection'), async (req, res) => {
    const body: unknown = req.body;
    const keys = Array.isArray(body) ? body : isPlainObject(body) && Array.isArray(body.keys) ? body.keys : undefined;
    if (!keys) throw errors.invalidPayload('The body must be an array of keys or {"keys": [...]}');
    refuseListPrecondition(req);
    await deleteItems(deps, ctxOf(deps, req), collectionOf(req), keys);
    noContent(res);
  });
}
