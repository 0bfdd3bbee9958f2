import { api, ApiError, ok } from '../api/client';
import { useAsync } from '../ui/use-async';

/** A relation in the Directus shape: `collection`.`field` holds a key of `related_collection`. */
export interface Relation {
  collection: string;
  field: string;
  related_collection: string | null;
  meta: {
    one_field?: string | null;
    junction_field?: string | null;
    one_deselect_action?: 'nullify' | 'delete' | null;
    one_collection_field?: string | null;
    one_allowed_collections?: string[] | null;
    [k: string]: unknown;
  };
  schema?: { on_delete?: string; [k: string]: unknown } | null;
}

/** A field of a collection as the item form and the data model see it. */
export type RelationalField =
  | { kind: 'm2o'; field: string; related: string; relation: Relation }
  | { kind: 'o2m'; field: string; child: string; key: string; deselect: 'nullify' | 'delete'; relation: Relation }
  | { kind: 'm2m'; field: string; junction: string; key: string; otherKey: string; related: string; relation: Relation; other: Relation }
  /** Many-to-any: junction rows naming their collection (`collectionField`) and its item's key (`otherKey`). */
  | {
      kind: 'm2a';
      field: string;
      junction: string;
      key: string;
      otherKey: string;
      collectionField: string;
      allowed: string[];
      relation: Relation;
      other: Relation;
    }
  /** A many-to-any junction's item field, seen from the junction: a key of the collection its row names. */
  | { kind: 'any'; field: string; collectionField: string; allowed: string[]; relation: Relation };

/**
 * Every relation (`GET /relations`), for administrators: for anyone else none is asked and the forms show key fields
 * as plain values (a role may see a relation to a collection it may write but not read, whose items no picker could list).
 */
export function useRelations(admin: boolean) {
  return useAsync(async () => {
    if (!admin) return [];
    try {
      return (await ok(api.GET('/relations'))).data as unknown as Relation[];
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) return [];
      throw err;
    }
  }, [admin]);
}

/** The relational fields of a collection: its many-to-one fields, and its aliases (one-to-many, many-to-many or many-to-any through a junction). */
export function relationalFields(collection: string, relations: Relation[]): RelationalField[] {
  const out: RelationalField[] = [];
  for (const r of relations) {
    if (r.collection === collection && r.related_collection) out.push({ kind: 'm2o', field: r.field, related: r.related_collection, relation: r });
    else if (r.collection === collection && r.meta.one_collection_field)
      out.push({ kind: 'any', field: r.field, collectionField: r.meta.one_collection_field, allowed: r.meta.one_allowed_collections ?? [], relation: r });
    if (r.related_collection !== collection || !r.meta.one_field) continue;
    const other = r.meta.junction_field ? relations.find((o) => o.collection === r.collection && o.field === r.meta.junction_field) : undefined;
    if (other && !other.related_collection && other.meta.one_collection_field)
      out.push({
        kind: 'm2a',
        field: r.meta.one_field,
        junction: r.collection,
        key: r.field,
        otherKey: other.field,
        collectionField: other.meta.one_collection_field,
        allowed: other.meta.one_allowed_collections ?? [],
        relation: r,
        other,
      });
    else if (other?.related_collection)
      out.push({
        kind: 'm2m',
        field: r.meta.one_field,
        junction: r.collection,
        key: r.field,
        otherKey: other.field,
        related: other.related_collection,
        relation: r,
        other,
      });
    else out.push({ kind: 'o2m', field: r.meta.one_field, child: r.collection, key: r.field, deselect: r.meta.one_deselect_action ?? 'nullify', relation: r });
  }
  return out;
}
