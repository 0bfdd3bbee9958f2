/** Field types of the query language (the items service's types; revisions use a subset). */
export type FieldType = 'integer' | 'bigInteger' | 'float' | 'decimal' | 'string' | 'text' | 'boolean' | 'uuid' | 'json' | 'date' | 'dateTime' | 'timestamp';

export interface FieldSchema {
  type: FieldType;
  /** SQL column name (default: the field name). Trusted: comes from code or a validated schema, never a request. */
  column?: string;
  /** Many-to-one: the name of the related table in the same QuerySchema (joined on its primary key). */
  relation?: string;
  /** Part of `search` (default: string/text and numeric fields). */
  searchable?: boolean;
  /**
   * A secret (password hash, TFA secret): `*` shows only whether it is set (`CONCEALED` or null); naming it anywhere
   * (`fields`, `filter`, `sort`, `groupBy`, `aggregate`) is 403 FORBIDDEN like an unknown field; never searched.
   */
  concealed?: boolean;
}

/** What a set concealed field reads as (Directus' mask). */
export const CONCEALED = '**********';

export interface TableSchema {
  /** Logical name (collection). */
  name: string;
  /** SQL table name. */
  table: string;
  primaryKey: string;
  fields: Record<string, FieldSchema>;
}

/** Every table a query may touch, by logical name. */
export type QuerySchema = Record<string, TableSchema>;

const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** A field written as its type alone when it needs no option. */
export type FieldSpec = FieldType | FieldSchema;

/**
 * A table whose logical name is its SQL table's (the common case), its fields in the order `*` shows them, each
 * written as its type when it needs no option: `tableOf('roles', 'id', { id: 'uuid', icon: unsearchable('string') })`.
 */
export function tableOf(name: string, primaryKey: string, fields: Record<string, FieldSpec>): TableSchema {
  const full = Object.fromEntries(Object.entries(fields).map(([f, spec]) => [f, typeof spec === 'string' ? { type: spec } : spec]));
  return { name, table: name, primaryKey, fields: full };
}

/** A field `search` passes over. */
export const unsearchable = (type: FieldType): FieldSchema => ({ type, searchable: false });
/** A secret field (see `FieldSchema.concealed`). */
export const concealed = (type: FieldType): FieldSchema => ({ type, concealed: true });

/** Checks a schema once (identifiers, relations, primary keys) so the planner may trust it. Returns it frozen. */
export function defineSchema(schema: QuerySchema): QuerySchema {
  for (const [name, t] of Object.entries(schema)) {
    if (t.name !== name) throw new Error(`schema: table key "${name}" ≠ name "${t.name}"`);
    if (!IDENT.test(t.table)) throw new Error(`schema: bad table identifier "${t.table}"`);
    if (!Object.hasOwn(t.fields, t.primaryKey)) throw new Error(`schema: ${name} lacks its primary key field`);
    for (const [f, def] of Object.entries(t.fields)) {
      if (!IDENT.test(f)) throw new Error(`schema: bad field name "${name}.${f}"`);
      if (def.column !== undefined && !IDENT.test(def.column)) throw new Error(`schema: bad column "${def.column}"`);
      if (def.relation !== undefined && !Object.hasOwn(schema, def.relation))
        throw new Error(`schema: ${name}.${f} relates to unknown table "${def.relation}"`);
    }
  }
  return Object.freeze(schema);
}

export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The field definition when `name` is an own field of the table (never a prototype key). */
export function fieldOf(table: TableSchema, name: string): FieldSchema | undefined {
  return Object.hasOwn(table.fields, name) ? table.fields[name] : undefined;
}

export const isNumericType = (t: FieldType) => t === 'integer' || t === 'bigInteger' || t === 'float' || t === 'decimal';
export const isStringType = (t: FieldType) => t === 'string' || t === 'text';
export const isDateType = (t: FieldType) => t === 'date' || t === 'dateTime' || t === 'timestamp';
