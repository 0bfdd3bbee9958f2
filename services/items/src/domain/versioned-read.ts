import { errors } from '@vellum/errors';
import type { Params } from '@vellum/query';
import type { CollectionDef } from './collection';
import type { ItemsDeps } from './items-deps';
import { manyToOne } from './relation';
import { isPlainObject } from './validate-write';

/** The deltas of one version key in a collection: item key (as stored in content_versions) → its own-column values. */
export type Overlay = Map<string, Record<string, unknown>> & {
  /** The same deltas whole (nested relational data included): what a one-item read lays over its related rows. */
  whole?: Map<string, Record<string, unknown>>;
};

/**
 * `?version=<key>`: the deltas of the collection's versions named `key` (null for `main` or no `version`: the live
 * items). A key no version of the collection has is 403 (Directus: ForbiddenError). Only own columns are laid over
 * (not the key, not alias fields — they are no column —, not nested objects of a many-to-one: a read lays those
 * over its related rows afterwards, versions/lay-nested.ts).
 */
export async function versionOverlay(deps: ItemsDeps, def: CollectionDef, rawQuery: unknown): Promise<Overlay | null> {
  const key = (rawQuery as Record<string, unknown> | undefined)?.version;
  if (key === undefined || key === 'main') return null;
  if (typeof key !== 'string' || key === '') throw errors.invalidQuery('"version" must be a version key.');
  const r = await deps.pool.query<{ item: string; delta: Record<string, unknown> | null }>(
    `SELECT "item", "delta" FROM content_versions WHERE "collection" = $1 AND "key" = $2`,
    [def.collection, key],
  );
  if (r.rowCount === 0) throw errors.forbidden();
  const own = (f: string, v: unknown) => f !== def.primaryKey && def.fields.some((d) => d.field === f) && !(manyToOne(def, f) && isPlainObject(v));
  const overlay: Overlay = new Map(r.rows.map((row) => [row.item, Object.fromEntries(Object.entries(row.delta ?? {}).filter(([f, v]) => own(f, v)))]));
  overlay.whole = new Map(r.rows.map((row) => [row.item, row.delta ?? {}]));
  return overlay;
}

const quote = (id: string) => `"${id.replace(/"/g, '""')}"`;

/**
 * Where a versioned read takes its root rows (planQuery's `rootSource`): the table with the deltas laid over the
 * versioned rows, so every filter, sort, aggregate and selected field reads the versioned state, in the read itself
 * (no write, no lock). The rows without a version come as stored; jsonb_populate_record casts each delta value to
 * its column's type.
 */
export function overlaidSource(def: CollectionDef, overlay: Overlay): (params: Params) => string {
  const t = quote(def.collection);
  const pk = quote(def.primaryKey);
  return (params) => {
    const keys = params.add([...overlay.keys()]);
    const deltas = params.add(JSON.stringify(Object.fromEntries(overlay)), 'jsonb');
    return (
      `SELECT * FROM ${t} WHERE NOT (${pk} = ANY(${keys})) UNION ALL ` +
      `SELECT (jsonb_populate_record(v, ${deltas} -> v.${pk}::text)).* FROM ${t} AS v WHERE v.${pk} = ANY(${keys})`
    );
  };
}
