import { escapeIdentifier as q } from 'pg';
import { OUTBOX_INSERT, type OutboxRow } from '@vellum/outbox';
import type { CollectionDef, FieldDef } from '../domain/collection';

/**
 * An item-change event written by its write's own statement: the outbox row as `outboxRow` gives it, its payload
 * without the members only the statement knows — `item` (a created row's key), `data` (the row as written), `delta`
 * (these fields of it) and `item_version` (the version the statement gave the item).
 */
export interface ItemEvent {
  row: OutboxRow;
  delta: string[];
}

const MAX_SAFE = '9007199254740991';

/**
 * A column's value as JSON built by PostgreSQL, the value the items pool's text parsers give (items-pool.ts) once
 * parsed: bigint a number when safe (else its text), numeric and date their text, timestamp its text with a `T`,
 * timestamptz ISO 8601 UTC to the millisecond (its column's precision), a float that JSON cannot hold null (as
 * JSON.stringify writes NaN). Undefined for a type it does not know (the general path writes those).
 */
function jsonOf(f: FieldDef, x: string): string | undefined {
  switch (f.type) {
    case 'integer':
    case 'string':
    case 'text':
    case 'boolean':
    case 'uuid':
    case 'json':
      return `to_jsonb(${x})`;
    case 'bigInteger':
      return `CASE WHEN ${x} BETWEEN -${MAX_SAFE} AND ${MAX_SAFE} THEN to_jsonb(${x}) ELSE to_jsonb(${x}::text) END`;
    case 'float':
      return `CASE WHEN ${x} IN ('NaN', 'Infinity', '-Infinity') THEN 'null'::jsonb ELSE to_jsonb(${x}) END`;
    case 'decimal':
    case 'date':
      return `to_jsonb(${x}::text)`;
    case 'dateTime':
      return `to_jsonb(replace(${x}::text, ' ', 'T'))`;
    case 'timestamp':
      return `CASE WHEN date_part('year', ${x}) BETWEEN 1 AND 9999 THEN to_jsonb(to_char(${x} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END`;
    default:
      return undefined;
  }
}

/** Whether every column of `def` (its fields: aliases come from its relations) has a JSON form built in SQL. */
export const eventWritable = (def: CollectionDef): boolean => def.fields.every((f) => jsonOf(f, 'x') !== undefined);

/** `jsonb_build_object` of these fields of `w` (at most 50 pairs per call: longer lists are joined with `||`). */
function objectOf(def: CollectionDef, fields: string[]): string {
  const parts: string[] = [];
  for (let i = 0; i < fields.length || i === 0; i += 50) {
    const pairs = fields.slice(i, i + 50).map((name) => `'${name}', ${jsonOf(def.fields.find((f) => f.field === name)!, `w.${q(name)}`)}`);
    parts.push(`jsonb_build_object(${pairs.join(', ')})`);
  }
  return parts.join(' || ');
}

/**
 * The data-modifying CTE `o` that inserts `event`'s outbox row for the one row of `w` (the write) and `v` (its
 * version), its parameters numbered from `first`. No row written (a value already stored): no event.
 */
export function eventCte(def: CollectionDef, event: ItemEvent, first: number): { text: string; values: unknown[] } {
  const p = (i: number) => `$${first + i}`;
  const pk = q(def.primaryKey);
  const data = objectOf(
    def,
    def.fields.map((f) => f.field),
  );
  const text = `o AS (${OUTBOX_INSERT}
  SELECT ${p(0)}::uuid, ${p(1)}, ${p(2)}, ${p(3)}::jsonb || jsonb_build_object('item', w.${pk}::text, 'data', ${data}, 'delta', ${objectOf(def, event.delta)}, 'item_version', v.version), ${p(4)}::jsonb
  FROM w JOIN v ON v.item = w.${pk}::text)`;
  const { id, destination, subject, payload, headers } = event.row;
  return { text, values: [id, destination, subject, payload, headers] };
}
