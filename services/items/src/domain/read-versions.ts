import { defineSchema, parseQuery, planQuery, type Query } from '@vellum/query';
import { errors } from '@vellum/errors';
import type { Accountability } from '@vellum/http';
import type { ItemsDeps } from './items-deps';
import { permits } from './access-rules';
import { versionsRepository } from '../data/versions.repository';
import { collectionDef } from './catalogue-defs';
import { readableDelta as cutDelta } from './versions/readable-delta';

/** The API shape of `content_versions` for the query language (Directus 11 `directus_versions` fields). */
const versionsSchema = defineSchema({
  versions: {
    name: 'versions',
    table: 'content_versions',
    primaryKey: 'id',
    fields: {
      id: { type: 'uuid' },
      key: { type: 'string' },
      name: { type: 'string' },
      collection: { type: 'string' },
      item: { type: 'string' },
      hash: { type: 'string', searchable: false },
      date_created: { type: 'timestamp' },
      user_created: { type: 'uuid' },
      date_updated: { type: 'timestamp' },
      user_updated: { type: 'uuid' },
      delta: { type: 'json' },
      publish_at: { type: 'timestamp' },
      publish_force: { type: 'boolean' },
      publish_status: { type: 'string' },
      publish_error: { type: 'string', searchable: false },
    },
  },
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (id: string) => UUID.test(id);

/** Collections whose items the caller may read ('*': all), the versions it may see. */
function readableCollections(deps: ItemsDeps, a: Accountability | undefined): '*' | string[] {
  const access = deps.rules.forCaller(a);
  if (access?.admin) return '*';
  return Object.keys(access?.permissions ?? {}).filter((c) => deps.rules.fields(a, c, 'read') !== null);
}

/**
 * A version's `delta` cut to what the caller may read, nested relational data included (versions/readable-delta.ts;
 * Directus shows all of it). A collection gone since: its readable fields only, at the top level.
 */
export async function readableDelta(deps: ItemsDeps, a: Accountability | undefined, collection: string, delta: unknown): Promise<unknown> {
  if (typeof delta !== 'object' || delta === null) return delta;
  const allowed = deps.rules.fields(a, collection, 'read');
  if (allowed === '*' && deps.rules.forCaller(a)?.admin) return delta;
  const def = await collectionDef(deps, collection);
  if (!def) return Object.fromEntries(Object.entries(delta).filter(([k]) => allowed !== null && permits(allowed, k)));
  return cutDelta(
    def,
    delta,
    (c) => deps.rules.fields(a, c, 'read'),
    (c) => collectionDef(deps, c),
  );
}

function plan(deps: ItemsDeps, a: Accountability | undefined, query: Query) {
  const readable = readableCollections(deps, a);
  const q = query.sort || query.random || query.aggregate || query.groupBy.length ? query : { ...query, sort: [{ path: 'date_created', desc: false }] };
  return planQuery(versionsSchema, 'versions', q, {
    now: deps.now(),
    user: a?.user ?? null,
    role: a?.role ?? null,
    rowFilter: (_t, alias, params) => (readable === '*' ? null : `${alias}."collection" = ANY(${params.add(readable, 'text[]')})`),
  });
}

const cutDeltas = (
  deps: ItemsDeps,
  a: Accountability | undefined,
  rows: Record<string, unknown>[],
  collectionOf: (r: Record<string, unknown>) => string | undefined,
) =>
  Promise.all(
    rows.map(async (r) => (Object.hasOwn(r, 'delta') && collectionOf(r) ? { ...r, delta: await readableDelta(deps, a, collectionOf(r)!, r.delta) } : r)),
  );

/**
 * `GET`/`SEARCH /versions`: the query language of `/items` over the versions of the collections the caller may
 * read (others are not there); each `delta` cut to the caller's readable fields.
 */
export async function readVersions(deps: ItemsDeps, a: Accountability | undefined, raw: unknown) {
  const query = parseQuery(raw, deps.limits);
  // the collection of each row is needed to cut its delta: read it along, drop it again when not asked for
  const grouped = query.aggregate !== null || query.groupBy.length > 0;
  const wantsCollection = grouped || query.fields.some((f) => f === '*' || f === 'collection');
  const p = plan(deps, a, wantsCollection ? query : { ...query, fields: [...query.fields, 'collection'] });
  const count = async (which: 'total' | 'filter') => Number((await deps.pool.query<{ n: string }>(p.count(which))).rows[0]?.n ?? 0);
  const [rows, total, filtered] = await Promise.all([
    query.limit === 0 && p.kind === 'list' ? [] : deps.pool.query(p.list()).then((r) => r.rows),
    query.meta.includes('total_count') ? count('total') : undefined,
    query.meta.includes('filter_count') ? count('filter') : undefined,
  ]);
  const data = (await cutDeltas(deps, a, p.shape(rows), (r) => r.collection as string | undefined)).map((r) => {
    if (wantsCollection) return r;
    const { collection: _drop, ...rest } = r;
    return rest;
  });
  if (query.meta.length === 0) return { data };
  const meta: Record<string, number> = {};
  if (total !== undefined) meta.total_count = total;
  if (filtered !== undefined) meta.filter_count = filtered;
  return { data, meta };
}

/** `GET /versions/:id` (`fields`): a version the caller may not see is 403; an id no version has, 404 (ids are random). */
export async function readVersion(deps: ItemsDeps, a: Accountability | undefined, id: string, raw: unknown) {
  if (!isUuid(id)) throw versionNotFound(id);
  const fields = typeof raw === 'object' && raw !== null && Object.hasOwn(raw, 'fields') ? { fields: (raw as { fields: unknown }).fields } : {};
  const row = (await readVersions(deps, a, { ...fields, filter: { id: { _eq: id } }, limit: 1 })).data[0];
  if (row) return row;
  throw (await versionsRepository.exists(deps.pool, id)) ? errors.forbidden() : versionNotFound(id);
}

/** 404 NOT_FOUND: no version has this id. */
export const versionNotFound = (_id: string) => errors.notFound('Version');
