import { errors } from '@vellum/errors';
import { loadCollection } from '../data/catalogue.repository';
import { withTransaction } from '@vellum/db';
import { itemsRepository, type Row } from '../data/items.repository';
import type { Queryable } from '../data/items-pool';
import type { CollectionDef } from './collection';
import { mapWriteError } from './db-errors';
import { enqueueItemChanges, type VersionedChange } from './enqueue-item-changes';
import { itemChangeMessage, pick, type ChangeContext } from './item-change';
import type { ItemsDeps } from './items-deps';
import { planItemUpdates, type ItemUpdate, type PlannedUpdate } from './plan-item-updates';

export type { ItemUpdate };

/** What a write returns: the collection, the keys in the order of the request, and the rows as written (same order). */
export interface WriteResult {
  def: CollectionDef;
  keys: unknown[];
  rows: Row[];
}

/**
 * PATCH /items/:collection[/:id]: every listed item must exist (else 403, nothing changes). One `update` event
 * per item with the full item after the change and `delta` = the fields the write set. The same change to
 * several items (`{keys, data}`, or one item) is one statement; a list of different changes, one per item.
 */
export async function updateItems(deps: ItemsDeps, ctx: ChangeContext, collection: string, updates: ItemUpdate[]): Promise<WriteResult> {
  const allowed = deps.rules.fields(ctx.accountability, collection, 'update');
  if (!allowed) throw errors.forbidden();
  return withTransaction(deps.pool, async (db) => {
    const def = await loadCollection(db, collection, true);
    if (!def) throw errors.forbidden();
    const planned = planItemUpdates(def, updates, allowed);
    const keys = planned.map((p) => p.key);
    const sameChange = planned.every((p) => p.values === planned[0]!.values || sameValues(p.values, planned[0]!.values));
    const changes: VersionedChange[] = [];
    const rows =
      sameChange && new Set(keys.map(String)).size === keys.length
        ? await updateAll(db, def, keys, planned[0]?.values ?? {})
        : await updateEach(db, def, planned);
    for (let i = 0; i < planned.length; i++) {
      const { key, values } = planned[i]!;
      const w = rows[i]!;
      const changed = Object.keys(values);
      if (changed.length) changes.push({ message: itemChangeMessage(ctx, collection, 'update', key, w.row, pick(w.row, changed)), version: w.version! });
    }
    await enqueueItemChanges(db, changes);
    return { def, keys, rows: rows.map((w) => w.row) };
  });
}

/** A row as written and its new version (none when the change set nothing). */
type Touched = { row: Row; version?: number };

/** The same values on every key, one statement; the rows in the order of `keys`. A missing key is 403. */
async function updateAll(db: Queryable, def: CollectionDef, keys: (string | number)[], values: Row): Promise<Touched[]> {
  const found: Touched[] = Object.keys(values).length
    ? await itemsRepository.update(db, def, keys, values).catch(mapWriteError)
    : (await itemsRepository.selectForUpdate(db, def, keys)).map((row) => ({ row }));
  if (found.length !== keys.length) throw errors.forbidden();
  const byKey = new Map(found.map((w) => [String(w.row[def.primaryKey]), w]));
  return keys.map((k) => byKey.get(String(k)) ?? forbidden());
}

/** One statement per change, in order (an item changed twice gets two versions, in the order of the payload). */
async function updateEach(db: Queryable, def: CollectionDef, planned: PlannedUpdate[]): Promise<Touched[]> {
  const out: Touched[] = [];
  for (const { key, values } of planned) out.push(...(await updateAll(db, def, [key], values)));
  return out;
}

const forbidden = (): never => {
  throw errors.forbidden();
};

/** Two validated value sets alike (same columns, same values: JSON-equal). */
function sameValues(a: Row, b: Row): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && JSON.stringify(a[k]) === JSON.stringify(b[k]));
}
