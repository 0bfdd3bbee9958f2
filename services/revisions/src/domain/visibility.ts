import { allowedCollections, allowedFields, type RoleAccess } from '@vellum/contracts';
import type { Accountability } from '@vellum/http';
import type { FieldReducer } from '@vellum/query';
import { collectionTestSql } from './collection-test-sql';
import { readableText } from './readable-text';

/** Role id (null: the public role) → its access rules, answered from memory (the watched map of events/). */
export interface AccessRules {
  get(role: string | null): RoleAccess | undefined;
}

/**
 * What the caller may see: everything, or these collections with these fields of each. A restricted visibility
 * also carries what its SQL needs, computed once per version of the role's rules (see `visibilityOf`).
 */
export type Visibility = { all: true } | RestrictedVisibility;

export interface RestrictedVisibility {
  all: false;
  fields: Record<string, '*' | string[]>;
  /** The readable collections (the row filter). */
  collections: string[];
  /**
   * The row filter's test of `collection` with the collections written in (`= 'a'`, `= ANY (ARRAY['a', 'b'])`): a
   * statement prepared with it plans for these collections (a generic plan knows them), and one collection is a plain
   * equality, which the (collection, id) index reads in id order — 25 rows for a page however rare the collection.
   */
  collectionTest: string;
  /** `{collection: "*" | [field, …]}` as JSON — the parameter of the `data`/`delta` projection. */
  fieldsJson: string;
  /** The same reduction in Node, for selected values (`readable` per row's collection). */
  reducer: FieldReducer;
}

export const ACTIVITY_COLLECTION = 'vellum_activity';
const ALL: Visibility = Object.freeze({ all: true });

function restricted(access: RoleAccess | undefined): RestrictedVisibility {
  const collections = allowedCollections(access, 'read');
  const fields: Record<string, '*' | string[]> = {};
  if (collections !== '*')
    for (const c of collections) {
      const f = allowedFields(access, c, 'read');
      if (f !== null) fields[c] = f;
    }
  const allowed = new Map(Object.entries(fields).map(([c, f]) => [c, f === '*' ? ('*' as const) : new Set(f)]));
  const reducer: FieldReducer = {
    with: ['collection'],
    map: (value, collection) => readable(value, allowed.get(collection as string)),
    whole: (collection) => allowed.get(collection as string) === '*',
    mapText: (text, collection) => readableText(text, allowed.get(collection as string)),
  };
  const names = Object.keys(fields);
  return Object.freeze({
    all: false as const,
    fields,
    collections: names,
    collectionTest: collectionTestSql(names),
    fieldsJson: JSON.stringify(fields),
    reducer,
  });
}

const NOTHING = restricted(undefined);
/** Per version of a role's rules: the store hands out a new object on every change, so the cache follows it. */
const cache = new WeakMap<RoleAccess, Visibility>();

export function visibilityOf(acc: Accountability | undefined, rules: AccessRules): Visibility {
  if (acc?.admin) return ALL;
  const access = rules.get(acc?.role ?? null);
  if (!access) return NOTHING;
  let vis = cache.get(access);
  if (!vis) {
    vis = access.admin ? ALL : restricted(access);
    cache.set(access, vis);
  }
  return vis;
}

export const visibleCollections = (v: Visibility): '*' | string[] => (v.all ? '*' : v.collections);

/**
 * A `data`/`delta` value reduced to the `allowed` keys — exactly what `readableJsonSql` computes: NULL stays NULL,
 * an unreadable collection gives NULL, a non-object passes whole, `*` passes whole, else only the allowed keys.
 * Used on the selected page in Node (the SQL form costs the statement far more in planning and sub-plan
 * set-up), while groups and sorts use the SQL form.
 */
export function readable(value: unknown, allowed: '*' | Set<string> | undefined): unknown {
  if (value === null || value === undefined) return null;
  if (allowed === undefined) return null;
  if (allowed === '*' || typeof value !== 'object' || Array.isArray(value)) return value;
  const src = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(src)) {
    if (!allowed.has(k)) continue;
    if (k === '__proto__') Object.defineProperty(out, k, { value: src[k], enumerable: true, writable: true, configurable: true });
    else out[k] = src[k];
  }
  return out;
}

/**
 * `expr` (a `data`/`delta` column of a revision row at `alias`) reduced to the keys the role may read in that row's
 * collection — in SQL, so groups, sorts and pages all see the same reduced value. `allowed` is the `fieldsJson`
 * parameter. A non-object value passes whole; a collection that is not readable (never reaches here: the row filter
 * hides its rows) gives NULL. Inline (no function call) and one key-set subtraction: several times cheaper than a
 * SQL function over jsonb_each + jsonb_object_agg, which PostgreSQL does not inline.
 */
export function readableJsonSql(expr: string, alias: string, allowed: string): string {
  const a = `(${allowed} -> ${alias}."collection")`;
  return (
    `CASE WHEN ${expr} IS NULL THEN NULL WHEN ${a} IS NULL THEN NULL WHEN jsonb_typeof(${expr}) <> 'object' THEN ${expr} ` +
    `WHEN jsonb_typeof(${a}) <> 'array' THEN ${expr} ` +
    `ELSE ${expr} - ARRAY(SELECT k FROM jsonb_object_keys(${expr}) AS k WHERE NOT ${a} ? k) END`
  );
}
