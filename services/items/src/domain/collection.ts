/** The field types a collection may declare (contract §6). */
export const FIELD_TYPES = [
  'integer',
  'bigInteger',
  'float',
  'decimal',
  'string',
  'text',
  'boolean',
  'uuid',
  'json',
  'date',
  'dateTime',
  'timestamp',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

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
}

/** Identifiers of collections and fields: lower snake case, not reserved for the platform. */
export const IDENTIFIER = /^[a-z][a-z0-9_]*$/;
export const MAX_IDENTIFIER_LENGTH = 63;

export function identifierProblem(name: unknown, what: string): string | undefined {
  if (typeof name !== 'string') return `${what} must be a string`;
  if (!IDENTIFIER.test(name)) return `${what} "${name}" must match [a-z][a-z0-9_]*`;
  if (name.length > MAX_IDENTIFIER_LENGTH) return `${what} "${name}" is longer than ${MAX_IDENTIFIER_LENGTH} characters`;
  if (name.startsWith('vellum_')) return `${what} "${name}" must not start with vellum_`;
  return undefined;
}

/** The service's own tables share the search path with the collections' tables: these names are taken. */
export const RESERVED_COLLECTIONS = new Set(['collections', 'fields', 'outbox']);

export const fieldOf = (def: CollectionDef, name: string) => def.fields.find((f) => f.field === name);
export const primaryKeyField = (def: CollectionDef) => fieldOf(def, def.primaryKey)!;
/** The PostgreSQL schema that holds one table per collection. */
export const CONTENT_SCHEMA = 'content';
