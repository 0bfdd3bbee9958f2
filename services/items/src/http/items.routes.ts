import { Router, type Request } from 'express';
import { itemUpdateSchema, itemsCreateSchema, itemsUpdateSchema, searchRequestSchema } from '@vellum/contracts';
import { errors } from '@vellum/errors';
import { route, sendJson, sendJsonText, type RouteTable } from '@vellum/http';
import { createItems } from '../domain/create-items.use-case';
import { deleteItems } from '../domain/delete-items.use-case';
import type { ChangeContext } from '../domain/item-change';
import type { ItemsDeps } from '../domain/items-deps';
import { readBack, readItem, readItemsText } from '../domain/read-items.use-case';
import { updateItems, type ItemUpdate } from '../domain/update-items.use-case';
import { isPlainObject } from '../domain/validate-write';
import { ifMatchOf, setVersionHeaders } from './item-version-headers';

const ctxOf = (deps: ItemsDeps, req: Request): ChangeContext => ({ accountability: req.accountability, now: deps.now(), requestId: req.requestId });
const collectionOf = (req: Request) => String(req.params.collection);

/**
 * The items routes: every one is open to all callers and checks the caller's permissions itself. One-item reads
 * and writes carry the item's version (ETag); one-item PATCH and DELETE honour `If-Match` (412 on another version).
 */
export function itemsRoutes(router: Router & Partial<RouteTable>, deps: ItemsDeps) {
  route(router, 'get', '/items/:collection', 'public', async (req, res) => {
    sendJsonText(res, await readItemsText(deps, req.accountability, collectionOf(req), req.query));
  });

  route(router, 'search', '/items/:collection', 'public', { body: searchRequestSchema }, async (req, res) => {
    // `?version=<key>` in the URL (as Directus takes it), the rest of the query in the body
    const version = req.query.version;
    const query = { ...(req.body.query ?? {}), ...(version !== undefined ? { version } : {}) };
    sendJsonText(res, await readItemsText(deps, req.accountability, collectionOf(req), query));
  });

  route(router, 'get', '/items/:collection/:id', 'public', async (req, res) => {
    const { item, key, version, versioned } = await readItem(deps, req.accountability, collectionOf(req), req.params.id, req.query);
    // a versioned read (`?version=<key>`) is not the item at its version: no ETag for it
    if (!versioned) setVersionHeaders(res, collectionOf(req), key, version);
    sendJson(res, { data: item });
  });

  route(router, 'post', '/items/:collection', 'public', { body: itemsCreateSchema }, async (req, res) => {
    const { def, keys, rows, versions } = await createItems(deps, ctxOf(deps, req), collectionOf(req), req.body);
    if (!Array.isArray(req.body)) setVersionHeaders(res, def.collection, keys[0], versions[0]);
    const items = await readBack(deps, req.accountability, def, keys, req.query, rows);
    if (!items) return void res.status(204).end();
    sendJson(res, { data: Array.isArray(req.body) ? items : (items[0] ?? null) });
  });

  route(router, 'patch', '/items/:collection/:id', 'public', { body: itemUpdateSchema }, async (req, res) => {
    const update = [{ key: req.params.id, data: req.body }];
    const { def, keys, rows, versions } = await updateItems(deps, ctxOf(deps, req), collectionOf(req), update, ifMatchOf(req));
    setVersionHeaders(res, def.collection, keys[0], versions[0]);
    const items = await readBack(deps, req.accountability, def, keys, req.query, rows);
    if (!items) return void res.status(204).end();
    sendJson(res, { data: items[0] ?? null });
  });

  // `{keys, data}` (the same change to several items) or an array of items that carry their primary key.
  route(router, 'patch', '/items/:collection', 'public', { body: itemsUpdateSchema }, async (req, res) => {
    const body = req.body;
    const updates: ItemUpdate[] = Array.isArray(body)
      ? body.map((data) => ({ data })) // each item names itself by its primary key
      : [...new Set(body.keys.map((k) => (typeof k === 'number' ? String(k) : k)))].map((key) => ({ key, data: body.data }));
    const ctx = ctxOf(deps, req);
    const collection = collectionOf(req);
    const { def, keys, rows } = await updateItems(deps, ctx, collection, updates);
    const items = await readBack(deps, req.accountability, def, keys, req.query, rows);
    if (!items) return void res.status(204).end();
    sendJson(res, { data: items });
  });

  route(router, 'delete', '/items/:collection/:id', 'public', async (req, res) => {
    const [deleted] = await deleteItems(deps, ctxOf(deps, req), collectionOf(req), [req.params.id], ifMatchOf(req));
    if (deleted) setVersionHeaders(res, collectionOf(req), deleted.key, deleted.version);
    res.status(204).end();
  });

  // A keys array, or `{keys: [...]}`.
  route(router, 'delete', '/items/:collection', 'public', async (req, res) => {
    const body: unknown = req.body;
    const keys = Array.isArray(body) ? body : isPlainObject(body) && Array.isArray(body.keys) ? body.keys : undefined;
    if (!keys) throw errors.invalidPayload('The body must be an array of keys or {"keys": [...]}');
    await deleteItems(deps, ctxOf(deps, req), collectionOf(req), keys);
    res.status(204).end();
  });
}
