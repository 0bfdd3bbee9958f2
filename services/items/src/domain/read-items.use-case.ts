import { errors } from '@vellum/errors';
import { parseQuery, planQuery, type Plan, type PlanOptions } from '@vellum/query';
import type { Accountability } from '@vellum/http';
import type { CollectionDef } from './collection';
import type { ItemsDeps } from './items-deps';
import { permits } from './access-rules';
import { toQuerySchema } from './query-schema';
import { primaryKeyValue } from './validate-write';
import { readWithFreshCatalogue } from './retry-on-schema-change';
import { collectionDef } from './catalogue-defs';
import { reachableCollections } from './reachable-collections';
import { attachChildren, parseDeep, splitAliasPaths, type Deep, type ListRead } from './read-children';
import { embeddedChildren, listWithChildren } from './read-embedded';
import { resolveAliasFilters, type ParentKeys } from './alias-filters';
import { overlaidSource, versionOverlay } from './versioned-read';
import { layVersions } from './versions/lay-versions';
import { cacheKey, ReadPlanCache, serialOf } from './read-plan-cache';
import { named as namedStatement } from '../data/items-pool';
import type { QueryArrayConfig, QueryConfig } from 'pg';
import { listText } from './list-text';
import { attachThrough, dropAdded, splitThrough, type Through } from './read-through';

type Item = Record<string, unknown>;
/** MAX_RELATIONAL_DEPTH's default. */
const RELATIONAL_DEPTH = 10;

/**
 * A read's plan: many-to-one paths joined in its statement (the readable collections they reach), alias fields
 * (one-to-many) kept aside for one statement per alias and level (`withChildren`); the key is read for them.
 */
export async function readPlan(
  deps: ItemsDeps,
  a: Accountability | undefined,
  collection: string,
  rawQuery: unknown,
  def?: CollectionDef,
  extra?: Pick<PlanOptions, 'rowFilter'>,
) {
  const readable = deps.rules.fields(a, collection, 'read');
  if (!readable) throw errors.forbidden();
  const d = def ?? (await collectionDef(deps, collection));
  if (!d) throw errors.forbidden();
  const query = parseQuery(rawQuery, deps.limits);
  if (query.filter && d.relations.length)
    query.filter = (await resolveAliasFilters(d, query.filter, parentKeysOf(deps, a), (n) => collectionDef(deps, n))) as Record<string, unknown>;
  const depth = deps.maxRelationalDepth ?? RELATIONAL_DEPTH;
  const { own, aliases } = d.relations.length ? splitAliasPaths(d, query.fields) : { own: query.fields, aliases: new Map<string, string[]>() };
  // `?version=<key>`: the statements read the versions' deltas laid over the stored rows (versioned-read.ts)
  const overlay = await versionOverlay(deps, d, rawQuery);
  // the key is read for the alias fields' children and for a version's nested data (laid over by key), dropped after
  const keyed = aliases.size > 0 || overlay !== null;
  const strip = keyed && !own.includes('*') && !own.includes(d.primaryKey);
  if (keyed) query.fields = strip ? [...own, d.primaryKey] : own;
  const reachable = followsManyToOne(d, query) ? await reachableCollections(deps, a, d, depth) : undefined;
  // alias fields behind many-to-one fields (`article.comments.body`): read after the rows, on the related rows
  let through: Through | undefined;
  if (reachable && d.relations.length) ({ own: query.fields, through } = splitThrough(d, query.fields, reachable));
  const plan = planQuery(toQuerySchema(d, readable, reachable), collection, query, {
    now: deps.now(),
    user: a?.user ?? null,
    role: a?.role ?? null,
    maxDepth: depth,
    ...(overlay ? { rootSource: overlaidSource(d, overlay) } : {}),
    ...extra,
  });
  const deep = aliases.size || through ? parseDeep((rawQuery as Record<string, unknown> | undefined)?.deep) : {};
  return { plan, def: d, children: { aliases, strip, deep, through }, versioned: overlay !== null, whole: overlay?.whole };
}

/** Whether a query may follow a many-to-one field (a path in `fields` or `sort`, the field as a key of `filter`): only then are related collections loaded. */
function followsManyToOne(def: CollectionDef, query: { fields: string[]; sort: { path: string }[] | null; filter: unknown }): boolean {
  const m2o = def.relations.filter((r) => r.collection === def.collection && r.related_collection !== null);
  if (m2o.length === 0) return false;
  if (query.fields.some((f) => f.includes('.')) || query.sort?.some((k) => k.path.includes('.'))) return true;
  return followsInFilter(query.filter, new Set(m2o.map((r) => r.field)));
}

/** A filter names a related field (`{author: {name: {_eq}}}`, or `_and`/`_or` of them), not only operators on the key (`{author: {_in: […]}}`). */
function followsInFilter(f: unknown, m2o: Set<string>): boolean {
  if (Array.isArray(f)) return f.some((x) => followsInFilter(x, m2o));
  if (typeof f !== 'object' || f === null) return false;
  return Object.entries(f).some(([k, v]) =>
    k.startsWith('_')
      ? followsInFilter(v, m2o)
      : m2o.has(k) && typeof v === 'object' && v !== null && Object.keys(v).some((x) => !x.startsWith('_') || x === '_and' || x === '_or'),
  );
}

/** The parents' keys of the children that match a filter: a list of the child collection as the caller, its key field only. */
const parentKeysOf =
  (deps: ItemsDeps, a: Accountability | undefined): ParentKeys =>
  async (child, fk, filter) =>
    (await listItems(deps, a, child, { fields: [fk], filter, limit: -1 })).data.map((row) => row[fk]);

export type Children = Awaited<ReturnType<typeof readPlan>>['children'];

/**
 * The alias fields asked for, read for all `rows` (see read-children.ts); a version's nested data laid over the rows
 * of the items it has (`whole`: item key → delta, versions/lay-nested.ts); the key dropped when only they needed it.
 */
async function withChildren(
  deps: ItemsDeps,
  a: Accountability | undefined,
  def: CollectionDef,
  rows: Item[],
  c: Children,
  depth: number,
  whole?: Map<string, Item>,
) {
  if (c.aliases.size || c.through) {
    if (depth >= (deps.maxRelationalDepth ?? RELATIONAL_DEPTH)) throw errors.invalidQuery('"fields" nests too deep.');
    const read: ListRead = async (collection, build, next) => {
      const child = await collectionDef(deps, collection);
      if (!child) throw errors.forbidden();
      return { data: (await listItems(deps, a, collection, build(child), next, child)).data, def: child };
    };
    if (c.aliases.size) await attachChildren(def, rows, c.aliases, c.deep as Deep, depth, read, !!whole?.size);
    if (c.through) {
      await attachThrough(def, rows, c.through.paths, c.deep as Deep, depth + 1, (n) => collectionDef(deps, n), read);
      dropAdded(rows, c.through.added);
    }
  }
  if (whole?.size) await layVersions(deps, a, def, rows, c, whole);
  if (c.strip) for (const row of rows) delete row[def.primaryKey];
}

/**
 * GET /items/:collection → the answer's JSON text (`{data, meta?}`, only readable fields): written from the rows
 * (read as arrays) when the list can be (list-text.ts: children as the JSON text PostgreSQL wrote), else the shaped
 * objects stringified — the same bytes either way.
 */
export async function readItemsText(deps: ItemsDeps, a: Accountability | undefined, collection: string, rawQuery: unknown): Promise<string> {
  return readWithFreshCatalogue(deps, async (d) => {
    const p = await keptPlanList(d, a, collection, rawQuery);
    if (p.text) {
      const [r, meta] = await Promise.all([d.pool.query<unknown[]>(p.text.statement), metaOf(d, p.plan)]);
      const data = p.plan.serializeArrays!(r.rows, r.fields, p.text.raw);
      if (data !== undefined) return meta ? `{"data":${data},"meta":${JSON.stringify(meta)}}` : `{"data":${data}}`;
    }
    return JSON.stringify(await listOf(d, a, p, 0));
  });
}

/** A list's plan: its rows' and, when they can be read in its statement, its children's (read-embedded.ts); its statement. */
async function planList(deps: ItemsDeps, a: Accountability | undefined, collection: string, rawQuery: unknown, depth: number, def?: CollectionDef) {
  const p = await readPlan(deps, a, collection, rawQuery, def);
  const children = p.children.aliases.size + (p.children.through?.paths.size ?? 0);
  if (children && depth >= (deps.maxRelationalDepth ?? RELATIONAL_DEPTH)) throw errors.invalidQuery('"fields" nests too deep.');
  // children in the rows' statement only when every one can be: none behind a many-to-one
  const embedded = p.children.aliases.size && !p.children.through && !p.versioned ? await embeddedChildren(deps, a, p.def, p.children) : undefined;
  const statement: QueryConfig = embedded ? listWithChildren(p.plan, embedded) : p.plan.list();
  const text = p.versioned ? undefined : listText(p.plan, children, p.children.strip, embedded);
  return { ...p, embedded, statement, text: text && { raw: text.raw, statement: arrayRows(text.statement) } };
}

const arrayRows = (s: QueryConfig): QueryArrayConfig => ({ ...s, rowMode: 'array' });

type ListPlan = Awaited<ReturnType<typeof planList>>;
const listPlans = new ReadPlanCache<ListPlan>();

/**
 * A request's list plan, kept per caller's rules and definition for the next same query (read-plan-cache.ts), its
 * statements prepared once per connection under a name of that definition (a new one after any schema change).
 */
async function keptPlanList(deps: ItemsDeps, a: Accountability | undefined, collection: string, rawQuery: unknown): Promise<ListPlan> {
  const rules = deps.rules.forCaller(a);
  const def = rules && deps.rules.fields(a, collection, 'read') ? await collectionDef(deps, collection) : undefined;
  const key = def && cacheKey(def, rawQuery);
  if (!rules || !def || key === undefined) return planList(deps, a, collection, rawQuery, 0, def);
  const kept = listPlans.get(rules, def, key);
  if (kept) return kept;
  const plan = await planList(deps, a, collection, rawQuery, 0, def);
  const name = (s: QueryConfig) => namedStatement(s.text, s.values ?? [], `read ${serialOf(def)}`);
  const named = { ...plan, statement: name(plan.statement), text: plan.text && { ...plan.text, statement: arrayRows(name(plan.text.statement)) } };
  listPlans.set(rules, def, key, named);
  return named;
}

async function listItems(deps: ItemsDeps, a: Accountability | undefined, collection: string, rawQuery: unknown, depth = 0, def?: CollectionDef) {
  return listOf(deps, a, await planList(deps, a, collection, rawQuery, depth, def), depth);
}

/** The counts a list's `meta` asks for, read beside its rows; undefined when it asks for none. */
async function metaOf(deps: ItemsDeps, plan: Plan): Promise<Record<string, number> | undefined> {
  if (!plan.query.meta.length) return undefined;
  const [total, filtered] = await Promise.all([
    plan.query.meta.includes('total_count') ? deps.pool.query(plan.count('total')) : undefined,
    plan.query.meta.includes('filter_count') ? deps.pool.query(plan.count('filter')) : undefined,
  ]);
  const meta: Record<string, number> = {};
  if (total) meta.total_count = Number(total.rows[0].n);
  if (filtered) meta.filter_count = Number(filtered.rows[0].n);
  return meta;
}

async function listOf(deps: ItemsDeps, a: Accountability | undefined, p: ListPlan, depth: number) {
  const { plan, def: d, children, embedded, statement, whole } = p;
  // one-to-many children in the rows' own statement when they can be (read-embedded.ts), else one statement per alias
  const [rows, meta] = await Promise.all([deps.pool.query(statement), metaOf(deps, plan)]);
  const data = plan.shape(rows.rows);
  if (embedded) embedded.place(data, rows.rows);
  else await withChildren(deps, a, d, data, children, depth, whole);
  return meta ? { data, meta } : { data };
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
): Promise<{ item: Item; key: string; version: number; versioned: boolean }> {
  return readWithFreshCatalogue(deps, (d) => oneItem(d, a, collection, id, rawQuery));
}

async function oneItem(deps: ItemsDeps, a: Accountability | undefined, collection: string, id: unknown, rawQuery: unknown) {
  const version = (rawQuery as Record<string, unknown> | undefined)?.version;
  const { plan, def, children, versioned, whole } = await readPlan(deps, a, collection, {
    ...onlyFields(rawQuery),
    ...(version !== undefined ? { version } : {}),
  });
  const one = plan.one(id);
  const n = one.values.length;
  const text = `SELECT o.*, (SELECT version FROM item_versions WHERE collection = $${n + 1} AND item = $${n + 2})::text AS "$version" FROM (${one.text}) o`;
  const key = String(primaryKeyValue(def, id));
  const r = await deps.pool.query({ text, values: [...one.values, collection, key] });
  if (r.rowCount === 0) throw errors.forbidden();
  const items = plan.shape(r.rows);
  await withChildren(deps, a, def, items, children, 0, whole);
  return { item: items[0]!, key, version: Number(r.rows[0].$version ?? 0), versioned };
}

const onlyFields = (rawQuery: unknown): { fields?: unknown; deep?: unknown } => {
  const q = rawQuery as Record<string, unknown> | undefined;
  return { ...(q?.fields !== undefined ? { fields: q.fields } : {}), ...(q?.deep !== undefined ? { deep: q.deep } : {}) };
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
  let children: Children;
  try {
    ({ plan, children } = await readPlan(deps, a, def.collection, { ...query, limit: -1, filter: { [def.primaryKey]: { _in: keys } } }, def));
  } catch (e) {
    // A `fields` the caller may not read on a write: the write happened; answer as Directus does without read access.
    if ((e as { code?: string }).code === 'FORBIDDEN') return undefined;
    throw e;
  }
  const r = await deps.pool.query(plan.list());
  const shaped = plan.shape(r.rows);
  await withChildren(deps, a, def, shaped, children, 0);
  const byKey = new Map(r.rows.map((row, i) => [String(row._k), shaped[i]!]));
  return keys.map((k) => byKey.get(String(k))).filter((x): x is Item => x !== undefined);
}

/** A row as `fields=*` reads it: the readable fields (the primary key always), in the collection's order. */
function readableFields(def: CollectionDef, readable: '*' | string[], row: Item): Item {
  const out: Item = {};
  for (const f of def.fields) if (f.field === def.primaryKey || permits(readable, f.field)) out[f.field] = row[f.field];
  return out;
}
