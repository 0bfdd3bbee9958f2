import type { CollectionDef } from './collection';

/** A relation's `meta` (Directus shape; keys beyond these are kept as sent). */
export interface RelationMeta {
  /** The alias field on the one side listing the many side's rows (one-to-many); null: none. */
  one_field?: string | null;
  /** On a junction's relation: the junction's other key field (many-to-many, many-to-any). */
  junction_field?: string | null;
  sort_field?: string | null;
  /** Many-to-any: the junction's column naming each row's related collection, and the collections it may name. */
  one_collection_field?: string | null;
  one_allowed_collections?: string[] | null;
  /** What a nested write does to a child left out of the one side's list. */
  one_deselect_action?: 'nullify' | 'delete' | null;
  [key: string]: unknown;
}

/**
 * A relation: the many side's column `collection`.`field` holds a key of `related_collection` (null: many-to-any).
 * Many-to-one seen from `collection`, one-to-many (`meta.one_field`) seen from `related_collection`.
 */
export interface RelationDef {
  collection: string;
  field: string;
  related_collection: string | null;
  meta: RelationMeta;
  schema: { on_delete: string; [key: string]: unknown } | null;
}

/** The many-to-one relation held by this collection's field, if any. */
export const manyToOne = (def: CollectionDef, field: string) => def.relations.find((r) => r.collection === def.collection && r.field === field);

/** The one-to-many relation whose alias field on this collection is `alias`, if any. */
export const oneToMany = (def: CollectionDef, alias: string) =>
  def.relations.find((r) => r.related_collection === def.collection && r.meta.one_field === alias);

/** This collection's alias fields (one-to-many, many-to-many through a junction). */
export const aliasFields = (def: CollectionDef) =>
  def.relations.filter((r) => r.related_collection === def.collection && typeof r.meta.one_field === 'string').map((r) => r.meta.one_field as string);

/** The other relation of a junction (the one from the junction to the far side), if this relation is one of a junction's. */
export const junctionPartner = (r: RelationDef, all: RelationDef[]) =>
  r.meta.junction_field ? all.find((o) => o.collection === r.collection && o.field === r.meta.junction_field) : undefined;
