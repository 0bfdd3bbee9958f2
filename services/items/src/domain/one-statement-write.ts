import { errors } from '@vellum/errors';
import { withConnection } from '@vellum/db';
import { outboxRow, wakeAfterStatement, wakesAfterStatement } from '@vellum/outbox';
import type { ItemChangeEvent } from '@vellum/contracts';
import { itemsRepository } from '../data/items.repository';
import { eventWritable, type ItemEvent } from '../data/item-event-cte';
import type { Queryable } from '../data/items-pool';
import type { CollectionDef } from './collection';
import { mapWriteError } from './db-errors';
import { itemChangeMessage, type ChangeContext } from './item-change';
import type { ItemsDeps } from './items-deps';
import { isNested } from './nested/nested-payload';
import { planItemUpdates, type ItemUpdate, type PlannedUpdate } from './plan-item-updates';
import type { WriteResult } from './update-items.use-case';
import { validateWrite } from './validate-write';

// A write of one item — not nested, no If-Match — in one statement on its own: the row, its version and its event's
// outbox row (data-modifying CTEs) commit together as that statement's transaction, where the general path sends
// BEGIN, the write, the outbox INSERT and COMMIT. The event's `data`, `delta` and `item_version` are built by
// PostgreSQL from the row it wrote, each value as the items pool would read it (item-event-cte.ts).

const fits = new WeakMap<CollectionDef, boolean>();

/** Whether every column of `def` has its event's JSON built in SQL (eventWritable), kept per definition. */
export function statementWritable(def: CollectionDef): boolean {
  let ok = fits.get(def);
  if (ok === undefined) fits.set(def, (ok = eventWritable(def)));
  return ok;
}

/** The event's outbox row with the members the statement fills left out, and the fields its `delta` names. */
function eventOf(ctx: ChangeContext, def: CollectionDef, action: ItemChangeEvent['action'], delta: string[]): ItemEvent {
  const m = itemChangeMessage(ctx, def.collection, action, '', null, null);
  const payload = m.payload as Partial<ItemChangeEvent>;
  delete payload.data;
  delete payload.delta;
  return { row: outboxRow(m), delta };
}

/**
 * Runs `write` on a connection of the items pool outside any transaction when that connection's outbox rows reach
 * a relay without enqueueOutbox (wakesAfterStatement), then wakes this process's relay; undefined otherwise.
 */
async function onOwnConnection<T>(deps: ItemsDeps, write: (db: Queryable) => Promise<T>): Promise<{ value: T } | undefined> {
  return withConnection(deps.pool, async (client) => {
    if (!wakesAfterStatement(client)) return undefined;
    const value = await write(client);
    wakeAfterStatement(client);
    return { value };
  });
}

/** The definition a one-item write may use here: kept in memory (the general path reads it FOR SHARE otherwise). */
async function keptDef(deps: ItemsDeps, collection: string): Promise<CollectionDef | undefined> {
  const def = deps.catalogue && (await deps.catalogue.get(deps.pool, collection));
  return def && statementWritable(def) ? def : undefined;
}

/**
 * PATCH of one item's own columns with no If-Match in one statement; undefined when the general path must run
 * (another shape of write, a nested payload, a collection with other types, or no kept definition).
 */
export async function updateOneInStatement(
  deps: ItemsDeps,
  ctx: ChangeContext,
  collection: string,
  updates: ItemUpdate[],
  ifMatch: number[] | null,
  allowed: '*' | string[],
): Promise<WriteResult | undefined> {
  if (updates.length !== 1 || ifMatch !== null) return undefined;
  const def = await keptDef(deps, collection);
  if (!def || isNested(def, updates[0]!.data)) return undefined;
  const [{ key, values }] = planItemUpdates(def, updates, allowed) as [PlannedUpdate];
  const changed = Object.keys(values);
  if (changed.length === 0) return undefined;
  const done = await onOwnConnection(deps, async (db) => {
    const rows = await itemsRepository.update(db, def, [key], values, null, eventOf(ctx, def, 'update', changed)).catch(mapWriteError);
    // not written: the values were the stored ones (answered as stored, no event), or no such item (403)
    return rows[0] ?? (await itemsRepository.selectForUpdate(db, def, [key]))[0];
  });
  if (!done) return undefined;
  if (!done.value) throw errors.forbidden();
  return { def, keys: [key], rows: [done.value.row], versions: [done.value.version] };
}

/** POST of one item, not nested, in one statement; undefined when the general path must run (see above). */
export async function createOneInStatement(
  deps: ItemsDeps,
  ctx: ChangeContext,
  collection: string,
  body: Record<string, unknown> | Record<string, unknown>[],
  allowed: '*' | string[],
): Promise<WriteResult | undefined> {
  if (Array.isArray(body)) return undefined;
  const def = await keptDef(deps, collection);
  if (!def || isNested(def, body)) return undefined;
  const values = validateWrite(def, body, allowed, 'create');
  // a key of its own for an auto-increment key moves the sequence too: the general path's second statement
  if (values[def.primaryKey] !== undefined) return undefined;
  const done = await onOwnConnection(deps, (db) =>
    itemsRepository.insert(db, def, values, eventOf(ctx, def, 'create', Object.keys(values))).catch(mapWriteError),
  );
  if (!done) return undefined;
  const { row, version } = done.value;
  return { def, keys: [row[def.primaryKey]], rows: [row], versions: [version] };
}
