import { errors } from '@vellum/errors';
import { parseQuery, planQuery, type Plan } from '@vellum/query';
import type { Accountability } from '@vellum/http';
import { loadCollection } from '../data/catalogue.repository';
import type { CollectionDef } from './collection';
import type { ItemsDeps } from './items-deps';
import { permits } from './access-rules';
import { toQuerySchema } from './query-schema';
import { primaryKeyValue } from './validate-write';
import { retryOnSchemaChange } from './retry-on-schema-change';

type Item = Record<string, unknown>;

async function readPlan(deps: ItemsDeps, a: Accountability | undefined, collection: string, rawQuery: unknown, def?: CollectionDef) {
  const readable = deps.rules.fields(a, collection, 'read');
  if (!readable) throw errors.forbidden();
  const d = def ?? (await loadCollection(deps.pool, collection));
  if (!d) throw errors.forbidden();
  const query = parseQuery(rawQuery, deps.limits);
  const plan = planQuery(toQuerySchema(d, readable), collection, query, { now: deps.now(), user: a?.user ?? null, role: a?.role ?? null });
  return { plan, def: d };
}

/** GET /items/:collection → `{data, meta?}` with only readable fields. */
export async function readItems(deps: ItemsDeps, a: Accountability | undefined, collection: string, rawQuery: unknown) {
  return retryOnSchemaChange(() => listItems(deps, a, collection, rawQuery));
}

async function listItems(deps: ItemsDeps, a: Accountability | undefined, collection: string, rawQuery: unknown) {
  const { plan } = await readPlan(deps, a, collection, rawQuery);
  const [rows, total, filtered] = await Promise.all([
    deps.pool.query(plan.list()),
    plan.query.meta.includes('total_count') ? deps.pool.query(plan.count('total')) : undefined,
    plan.query.meta.includes('filter_count') ? deps.pool.query(plan.count('filter')) : undefined,
  ]);
  const data = plan.shape(rows.rows);
  const meta: Record<string, number> = {};
  if (total) meta.total_count = Number(total.rows[0].n);
  if (filtered) meta.filter_count = Number(filtered.rows[0].n);
  return plan.query.meta.length ? { data, meta } : { data };
}

/**
 * GET /items/:collection/:id → the item, its key as stored (`007` → `7`) and its version (`item_versions`, read by the same statement, so the two
 * belong together; 0 for an item never written since versions exist); a missing and an unreadable item are both 403.
 */
export async function readItem(
  deps: ItemsDeps,
  a: Accountability | undefined,
  collection: string,
  id: unknown,
  rawQuery: unknown,
): Promise<{ item: Item; key: string; version: number }> {
  return retryOnSchemaChange(() => oneItem(deps, a, collection, id, rawQuery));
}

async function oneItem(deps: ItemsDeps, a: Accountability | undefined, collection: string, id: unknown, rawQuery: unknown) {
  const { plan, def } = await readPlan(deps, a, collection, onlyFields(rawQuery));
  const one = plan.one(id);
  const n = one.values.length;
  const text = `SELECT o.*, (SELECT version FROM item_versions WHERE collection = $${n + 1} AND item = $${n + 2})::text AS "$version" FROM (${one.text}) o`;
  const key = String(primaryKeyValue(def, id));
  const r = await deps.pool.query({ text, values: [...one.values, collection, key] });
  if (r.rowCount === 0) throw errors.forbidden();
  return { item: plan.shape(r.rows)[0]!, key, version: Number(r.rows[0].$version ?? 0) };
}

const onlyFields = (rawQuery: unknown): { fields?: unknown } => {
  const q = rawQuery as Record<string, unknown> | undefined;
  return q && q.fields !== undefined ? { fields: q.fields } : {};
};

/**
 * The items a write returns, read with the caller's read permission, in the order of `keys`. Undefined when the
 * caller may not read the collection (the route then answers 204, as Directus does). Without `fields`, the rows
 * as the write returned them (`written`, same order as `keys`), cut to the readable fields: no read back.
 */
export async function readBack(
  deps: ItemsDeps,
  a: Accountability | undefined,
  def: CollectionDef,
  keys: unknown[],
  rawQuery: unknown,
  written?: Item[],
): Promise<Item[] | undefined> {
  const readable = deps.rules.fields(a, def.collection, 'read');
  if (!readable) return undefined;
  if (keys.length === 0) return [];
  const query = onlyFields(rawQuery);
  if (written && query.fields === undefined) {
    // an item written twice by one request answers with its final state both times, as a read after the write would
    const last = new Map(written.map((row, i) => [String(keys[i]), row]));
    return keys.map((k) => readableFields(def, readable, last.get(String(k))!));
  }
  let plan: Plan;
  try {
    ({ plan } = await readPlan(deps, a, def.collection, { ...query, limit: -1, filter: { [def.primaryKey]: { _in: keys } } }, def));
  } catch (e) {
    // A `fields` the caller may not read on a write: the write happened; answer as Directus does without read access.
    if ((e as { code?: string }).code === 'FORBIDDEN') return undefined;
    throw e;
  }
  const r = await deps.pool.query(plan.list());
  const shaped = plan.shape(r.rows);
  const byKey = new Map(r.rows.map((row, i) => [String(row._k), shaped[i]!]));
  return keys.map((k) => byKey.get(String(k))).filter((x): x is Item => x !== undefined);
}

/** A row as `fields=*` reads it: the readable fields (the primary key always), in the collection's order. */
function readableFields(def: CollectionDef, readable: '*' | string[], row: Item): Item {
  const out: Item = {};
  for (const f of def.fields) if (f.field === def.primaryKey || permits(readable, f.field)) out[f.field] = row[f.field];
  return out;
}
