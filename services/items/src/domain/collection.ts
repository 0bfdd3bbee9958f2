import type { FieldType } from '@vellum/contracts';
import type { RelationDef } from './relation';

// The field types a collection may declare and the identifier rules (contract §6) live with the request schema
// (`collectionRequestSchema` of @vellum/contracts).
export type { FieldType };

/** Directus field `schema` keys this service acts on; any other key is kept as sent. */
export interface FieldSchema {
  is_primary_key?: boolean;
  has_auto_increment?: boolean;
  is_nullable?: boolean;
  is_unique?: boolean;
  is_indexed?: boolean;
  max_length?: number | null;
  numeric_precision?: number | null;
  numeric_scale?: number | null;
  default_value?: unknown;
  [key: string]: unknown;
}

export interface FieldDef {
  field: string;
  type: FieldType;
  schema: FieldSchema;
  meta: Record<string, unknown> | null;
}

export interface CollectionDef {
  collection: string;
  primaryKey: string;
  fields: FieldDef[];
  meta: Record<string, unknown> | null;
  schema: Record<string, unknown> | null;
  /** The relations this collection is either side of (many-to-one from its fields, one-to-many to its aliases). */
  relations: RelationDef[];
}

/** The service's own tables share the search path with the collections' tables: these names are taken. */
export const RESERVED_COLLECTIONS = new Set(['collections', 'fields', 'outbox', 'item_versions', 'relations', 'content_versions']);

export const fieldOf = (def: CollectionDef, name: string) => def.fields.find((f) => f.field === name);
export const primaryKeyField = (def: CollectionDef) => fieldOf(def, def.primaryKey)!;
