import { escapeIdentifier as q } from 'pg';
import { OUTBOX_INSERT, type OutboxRow } from '@vellum/outbox';
import type { CollectionDef } from '../domain/collection';

/**
 * An item-change event written by its write's own statement: the outbox row as `outboxRow` gives it, its payload
 * without the members only the statement knows — `item` (a created row's key), `data` (the row as written), `delta`
 * (these fields of it) and `item_version` (the version the statement gave the item).
 */
export interface ItemEvent {
  row: OutboxRow;
  delta: string[];
}

/**
 * The data-modifying CTE `o` that inserts `event`'s outbox row for the one row of `w` (the write) and `v` (its
 * version), its parameters numbered from `first`. No row written (a value already stored): no event.
 */
export function eventCte(def: CollectionDef, event: ItemEvent, first: number): { text: string; values: unknown[] } {
  const p = (i: number) => `$${first + i}`;
  const pk = q(def.primaryKey);
  const delta = event.delta.map((f) => `'${f}', w.${q(f)}`).join(', ');
  const text = `o AS (${OUTBOX_INSERT}
  SELECT ${p(0)}::uuid, ${p(1)}, ${p(2)}, ${p(3)}::jsonb || jsonb_build_object('item', w.${pk}::text, 'data', to_jsonb(w), 'delta', jsonb_build_object(${delta}), 'item_version', v.version), ${p(4)}::jsonb
  FROM w JOIN v ON v.item = w.${pk}::text)`;
  const { id, destination, subject, payload, headers } = event.row;
  return { text, values: [id, destination, subject, payload, headers] };
}
