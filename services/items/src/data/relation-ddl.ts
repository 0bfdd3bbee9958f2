import { escapeIdentifier as q } from 'pg';
import type { CollectionDef } from '../domain/collection';
import type { RelationChange } from '../domain/plan-relation';
import type { RelationDef } from '../domain/relation';
import { CONTENT_SCHEMA, tableName } from './content-schema';

const fkName = (r: RelationDef) => q(`${r.collection}_${r.field}_fkey`.slice(0, 63));
const fkIndex = (r: RelationDef) => q(`${r.collection}_${r.field}_fk_idx`.slice(0, 63));

/**
 * The foreign key added without a long lock: NOT VALID takes the table's lock only briefly, VALIDATE then checks the
 * existing rows under a lock that lets reads and writes go on. The key column is indexed (one-to-many reads and
 * the related row's deletes look rows up by it).
 */
function addForeignKey(r: RelationDef, one: CollectionDef): string[] {
  const table = tableName(r.collection);
  return [
    `ALTER TABLE ${table} ADD CONSTRAINT ${fkName(r)} FOREIGN KEY (${q(r.field)}) REFERENCES ${tableName(one.collection)} (${q(one.primaryKey)}) ON DELETE ${r.schema!.on_delete} NOT VALID`,
    `ALTER TABLE ${table} VALIDATE CONSTRAINT ${fkName(r)}`,
  ];
}

const dropForeignKey = (r: RelationDef) => `ALTER TABLE ${tableName(r.collection)} DROP CONSTRAINT IF EXISTS ${fkName(r)}`;

/** The DDL of one relation change (a many-to-any relation has no foreign key: its column names keys of several collections). */
export function relationChangeSql(change: RelationChange): string[] {
  const r = change.relation;
  switch (change.kind) {
    case 'create':
      return [...(change.one ? addForeignKey(r, change.one) : []), `CREATE INDEX IF NOT EXISTS ${fkIndex(r)} ON ${tableName(r.collection)} (${q(r.field)})`];
    case 'update':
      if (!change.one || change.before.schema?.on_delete === r.schema?.on_delete) return [];
      return [dropForeignKey(r), ...addForeignKey(r, change.one)];
    case 'delete':
      return [dropForeignKey(r), `DROP INDEX IF EXISTS ${q(CONTENT_SCHEMA)}.${fkIndex(r)}`];
  }
}
