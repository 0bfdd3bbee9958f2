import { errors } from '@vellum/errors';
import type { CollectionDef } from '../collection';
import { manyToOne, oneToMany, type RelationDef } from '../relation';
import { isPlainObject } from '../validate-write';

/** A write payload split by what each key is: the row's own columns, related rows to write first (many-to-one), child lists (one-to-many). */
export interface SplitPayload {
  own: Record<string, unknown>;
  /** Many-to-one (and many-to-any) fields given as an object: the related row to create or update, whose key the field then holds. */
  parents: { relation: RelationDef; field: string; value: Record<string, unknown> }[];
  /** Alias fields: the children to create, link, update, unlink or delete. */
  children: { relation: RelationDef; alias: string; value: unknown }[];
}

export function splitPayload(def: CollectionDef, payload: Record<string, unknown>): SplitPayload {
  const out: SplitPayload = { own: {}, parents: [], children: [] };
  for (const [k, v] of Object.entries(payload)) {
    const m2o = manyToOne(def, k);
    const o2m = m2o ? undefined : oneToMany(def, k);
    if (m2o && isPlainObject(v)) out.parents.push({ relation: m2o, field: k, value: v });
    else if (o2m) out.children.push({ relation: o2m, alias: k, value: v });
    else out.own[k] = v;
  }
  return out;
}

/** Whether a payload writes anything but the row's own columns (a key in a many-to-one field is a column value). */
export const isNested = (def: CollectionDef, payload: Record<string, unknown>) =>
  def.relations.length > 0 && Object.entries(payload).some(([k, v]) => (manyToOne(def, k) && isPlainObject(v)) || oneToMany(def, k));

/** One-to-many values in Directus's two shapes: a list (the children as they must be), or `{create, update, delete}` (changes). */
export type ChildChanges =
  { kind: 'list'; items: unknown[] } | { kind: 'changes'; create: Record<string, unknown>[]; update: Record<string, unknown>[]; delete: unknown[] };

export function childChanges(alias: string, value: unknown): ChildChanges {
  if (value === null) return { kind: 'list', items: [] };
  if (Array.isArray(value)) return { kind: 'list', items: value };
  if (isPlainObject(value) && Object.keys(value).every((k) => k === 'create' || k === 'update' || k === 'delete')) {
    const list = (k: string) => {
      const v = value[k] ?? [];
      if (!Array.isArray(v)) throw errors.invalidPayload(`"${alias}.${k}" must be an array`);
      return v;
    };
    const create = list('create');
    const update = list('update');
    if (![...create, ...update].every(isPlainObject)) throw errors.invalidPayload(`"${alias}.create" and "${alias}.update" must hold objects`);
    return { kind: 'changes', create: create as Record<string, unknown>[], update: update as Record<string, unknown>[], delete: list('delete') };
  }
  throw errors.invalidPayload(`"${alias}" must be an array or {"create": [...], "update": [...], "delete": [...]}`);
}
