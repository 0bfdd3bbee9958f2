import { errors } from '@vellum/errors';
import { withTransaction } from '@vellum/db';
import { itemsRepository, type Row, type Written } from '../data/items.repository';
import type { Queryable } from '../data/items-pool';
import type { CollectionDef } from './collection';
import { mapWriteError } from './db-errors';
import { retryWrite } from './retry-on-schema-change';
import { lockedForTree, writeDef } from './catalogue-defs';
import { enqueueItemChanges, type VersionedChange } from './enqueue-item-changes';
import { itemChangeMessage, pick, type ChangeContext } from './item-change';
import type { ItemsDeps } from './items-deps';
import { planItemUpdates, type ItemUpdate, type PlannedUpdate } from './plan-item-updates';
import { isNested } from './nested/nested-payload';
import { updateTrees } from './nested/write-tree';
import { updateOneInStatement } from './one-statement-write';

export type { ItemUpdate };

/** What a write returns: the collection, the keys in the order of the request, the rows as written and their items' versions (same order). */
export interface WriteResult {
  def: CollectionDef;
  keys: unknown[];
  rows: Row[];
  versions: number[];
}

/** `If-Match` of a one-item write: the versions the caller read (null: no condition). */
export type IfMatch = number[] | null;

/**
 * PATCH /items/:collection[/:id]: every listed item must exist (else 403, nothing changes). One `update` event
 * per item with the full item after the change and `delta` = the fields the write set. The same change to
 * several items (`{keys, data}`, or one item) is one statement; a list of different changes, one per item.
 * Values equal to the stored ones write nothing and emit nothing (the item is answered as stored). `ifMatch`:
 * an item whose version is another is 412 PRECONDITION_FAILED, checked by the write's own statement (nothing written).
 */
export async function updateItems(
  deps: ItemsDeps,
  ctx: ChangeContext,
  collection: string,
  updates: ItemUpdate[],
  ifMatch: IfMatch = null,
): Promise<WriteResult> {
  const allowed = deps.rules.fields(ctx.accountability, collection, 'update');
  if (!allowed) throw errors.forbidden();
  await deps.history?.admit();
  return retryWrite(
    async (cached) =>
      (cached && (await updateOneInStatement(deps, ctx, collection, updates, ifMatch, allowed))) ||
      withTransaction(deps.pool, (db) => updateItemsIn(db, deps, ctx, collection, updates, ifMatch, cached)),
  );
}

/** `updateItems` inside a transaction the caller holds (a scheduled promote commits it with its job's row); `cached`: see retryWrite. */
export async function updateItemsIn(
  db: Queryable,
  deps: ItemsDeps,
  ctx: ChangeContext,
  collection: string,
  updates: ItemUpdate[],
  ifMatch: IfMatch = null,
  cached = false,
): Promise<WriteResult> {
  const allowed = deps.rules.fields(ctx.accountability, collection, 'update');
  if (!allowed) throw errors.forbidden();
  const def = await writeDef(deps, db, collection, cached);
  if (!def) throw errors.forbidden();
  if (updates.some((u) => isNested(def, u.data))) return updateTrees(db, deps, ctx, await lockedForTree(db, def, cached), updates, ifMatch);
  const planned = planItemUpdates(def, updates, allowed);
  const keys = planned.map((p) => p.key);
  const sameChange = planned.every((p) => p.values === planned[0]!.values || sameValues(p.values, planned[0]!.values));
  const changes: VersionedChange[] = [];
  const rows =
    sameChange && new Set(keys.map(String)).size === keys.length
      ? await updateAll(db, def, keys, planned[0]?.values ?? {}, ifMatch)
      : await updateEach(db, def, planned, ifMatch);
  for (let i = 0; i < planned.length; i++) {
    const { key, values } = planned[i]!;
    const w = rows[i]!;
    const changed = Object.keys(values);
    if (changed.length && !w.unchanged)
      changes.push({ message: itemChangeMessage(ctx, collection, 'update', key, w.row, pick(w.row, changed)), version: w.version });
  }
  if (changes.length) await enqueueItemChanges(db, changes);
  return { def, keys, rows: rows.map((w) => w.row), versions: rows.map((w) => w.version) };
}

/**
 * The same values on every key, one statement; the rows in the order of `keys`. Keys the statement did not write
 * (missing, or already holding the values: rare) are read locked by a second one. A missing key is 403, another
 * version than `ifMatch` 412 (a written row was checked by its statement: NaN; a row left as stored is checked here).
 */
async function updateAll(db: Queryable, def: CollectionDef, keys: (string | number)[], values: Row, ifMatch: IfMatch): Promise<Written[]> {
  const found = Object.keys(values).length ? await itemsRepository.update(db, def, keys, values, ifMatch).catch(mapWriteError) : [];
  if (found.length < keys.length) {
    const done = new Set(found.map((w) => String(w.row[def.primaryKey])));
    found.push(
      ...(await itemsRepository.selectForUpdate(
        db,
        def,
        keys.filter((k) => !done.has(String(k))),
      )),
    );
  }
  if (found.length !== keys.length) throw errors.forbidden();
  const missed = found.find((w) => Number.isNaN(w.version) || (w.unchanged && ifMatch !== null && !ifMatch.includes(w.version)));
  if (missed) throw errors.preconditionFailed(Number.isNaN(missed.version) ? undefined : missed.version);
  const byKey = new Map(found.map((w) => [String(w.row[def.primaryKey]), w]));
  return keys.map((k) => byKey.get(String(k)) ?? forbidden());
}

/**
 * One statement per change, in order (an item changed twice gets two versions, in the order of the payload), the
 * rows locked first in key order: two lists over the same items in other orders wait for each other, never deadlock.
 */
async function updateEach(db: Queryable, def: CollectionDef, planned: PlannedUpdate[], ifMatch: IfMatch): Promise<Written[]> {
  const distinct = [...new Map(planned.map((p) => [String(p.key), p.key])).values()];
  if (distinct.length > 1) await itemsRepository.lock(db, def, distinct);
  const out: Written[] = [];
  for (const { key, values } of planned) out.push(...(await updateAll(db, def, [key], values, ifMatch)));
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
