import { escapeIdentifier } from 'pg';
import type { CollectionDef } from '../domain/collection';
import type { SchemaChange } from '../domain/schema-change';
import { columnSql, createIndexSql, CONTENT_SCHEMA, defaultLiteral, indexName, sqlType, tableName } from './content-schema';

const hasDefault = (v: unknown) => v !== undefined && v !== null;
const indexed = (f: { schema: { is_indexed?: boolean; is_unique?: boolean } }) => f.schema.is_indexed === true && !f.schema.is_unique;

/**
 * The DDL of one field change, online: `ADD COLUMN` with a constant default and `DROP COLUMN` rewrite nothing; an
 * ALTER only changes what differs (a type change is one planFieldUpdate allowed: no rewrite).
 */
export function fieldChangeSql(def: CollectionDef, change: SchemaChange): string[] {
  const table = tableName(def.collection);
  switch (change.kind) {
    case 'add': {
      const f = change.field;
      return [`ALTER TABLE ${table} ADD COLUMN ${columnSql(def, f)}`, ...(indexed(f) ? [createIndexSql(def.collection, f.field)] : [])];
    }
    case 'drop':
      return [`ALTER TABLE ${table} DROP COLUMN ${escapeIdentifier(change.field.field)}`];
    case 'alter': {
      const { before, after } = change;
      const column = `ALTER TABLE ${table} ALTER COLUMN ${escapeIdentifier(after.field)}`;
      const out: string[] = [];
      if (sqlType(before) !== sqlType(after)) out.push(`${column} TYPE ${sqlType(after)}`);
      if (after.field !== def.primaryKey) {
        if (hasDefault(after.schema.default_value)) {
          if (after.schema.default_value !== before.schema.default_value || sqlType(before) !== sqlType(after)) {
            out.push(`${column} SET DEFAULT ${defaultLiteral(after, after.schema.default_value)}`);
          }
        } else if (hasDefault(before.schema.default_value)) out.push(`${column} DROP DEFAULT`);
        const notNull = (f: typeof after) => f.schema.is_nullable === false;
        if (notNull(after) !== notNull(before)) out.push(`${column} ${notNull(after) ? 'SET' : 'DROP'} NOT NULL`);
        if (indexed(after) && !indexed(before)) out.push(createIndexSql(def.collection, after.field));
        if (!indexed(after) && indexed(before)) out.push(`DROP INDEX IF EXISTS ${escapeIdentifier(CONTENT_SCHEMA)}.${indexName(def.collection, after.field)}`);
      }
      return out;
    }
    case 'collection':
      return [];
  }
}
