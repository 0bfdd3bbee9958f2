import type { FieldDef } from './collection';
import type { RelationDef } from './relation';

/** One change to a collection's schema, applied with its catalogue rows in one transaction (fields.repository.ts). */
export type SchemaChange =
  | { kind: 'add'; field: FieldDef }
  | { kind: 'alter'; before: FieldDef; after: FieldDef }
  | { kind: 'drop'; field: FieldDef; relations?: RelationDef[] }
  | { kind: 'collection'; meta: Record<string, unknown> | null };
