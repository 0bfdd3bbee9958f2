import { errors } from '@vellum/errors';
import type { Queryable } from '../../data/items-pool';
import type { CollectionDef } from '../collection';
import { enqueueItemChanges } from '../enqueue-item-changes';
import type { ChangeContext } from '../item-change';
import type { ItemsDeps } from '../items-deps';
import type { ItemUpdate } from '../plan-item-updates';
import { primaryKeyValue } from '../validate-write';
import { TreeWriter } from './tree-writer';

/** What a write returns (see update-items.use-case.ts WriteResult). */
interface TreeResult {
  def: CollectionDef;
  keys: unknown[];
  rows: Record<string, unknown>[];
  versions: number[];
}

/** `POST /items/:collection` with nested data: every tree in the caller's transaction, its events enqueued with it. */
export async function createTrees(
  db: Queryable,
  deps: ItemsDeps,
  ctx: ChangeContext,
  def: CollectionDef,
  payloads: Record<string, unknown>[],
): Promise<TreeResult> {
  const tree = new TreeWriter(db, deps, ctx);
  const result: TreeResult = { def, keys: [], rows: [], versions: [] };
  await tree.namedKeysFirst(def, payloads);
  for (const p of payloads) {
    const w = await tree.create(def, p, null);
    result.keys.push(w.key);
    result.rows.push(w.row);
    result.versions.push(w.version);
  }
  await enqueueItemChanges(db, tree.changes);
  return result;
}

/** `PATCH /items/:collection[/:id]` with nested data: each item's tree in turn, in the caller's transaction. */
export async function updateTrees(
  db: Queryable,
  deps: ItemsDeps,
  ctx: ChangeContext,
  def: CollectionDef,
  updates: ItemUpdate[],
  ifMatch: number[] | null,
): Promise<TreeResult> {
  const tree = new TreeWriter(db, deps, ctx);
  const result: TreeResult = { def, keys: [], rows: [], versions: [] };
  const pk = def.primaryKey;
  for (const u of updates) {
    if (!('key' in u) && !Object.hasOwn(u.data, pk)) throw errors.invalidPayload(`Every item needs its primary key "${pk}"`);
    const key = primaryKeyValue(def, 'key' in u ? u.key : u.data[pk]);
    if (key === undefined) throw errors.forbidden();
    const { [pk]: own, ...data } = u.data;
    if (own !== undefined && primaryKeyValue(def, own) !== key) throw errors.invalidPayload(`The primary key "${pk}" can't be changed`);
    const w = await tree.update(def, key, data, null, ifMatch);
    result.keys.push(key);
    result.rows.push(w.row);
    result.versions.push(w.version);
  }
  if (tree.changes.length) await enqueueItemChanges(db, tree.changes);
  return result;
}
