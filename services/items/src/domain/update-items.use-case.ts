import { errors } from '@vellum/errors';
import { loadCollection } from '../data/catalogue.repository';
import { withTransaction } from '@vellum/db';
import { itemsRepository } from '../data/items.repository';
import type { CollectionDef } from './collection';
import { mapWriteError } from './db-errors';
import { enqueueItemChanges } from './enqueue-item-changes';
import { itemChangeMessage, pick, type ChangeContext } from './item-change';
import type { ItemsDeps } from './items-deps';
import { planItemUpdates, type ItemUpdate } from './plan-item-updates';

export type { ItemUpdate };

/**
 * PATCH /items/:collection[/:id]: every listed item must exist (else 403, nothing changes). One `update` event
 * per item with the full item after the change and `delta` = the fields the write set.
 */
export async function updateItems(
  deps: ItemsDeps,
  ctx: ChangeContext,
  collection: string,
  updates: ItemUpdate[],
): Promise<{ def: CollectionDef; keys: unknown[] }> {
  const allowed = deps.rules.fields(ctx.accountability, collection, 'update');
  if (!allowed) throw errors.forbidden();
  return withTransaction(deps.pool, async (db) => {
    const def = await loadCollection(db, collection, true);
    if (!def) throw errors.forbidden();
    const planned = planItemUpdates(def, updates, allowed);
    const keys = planned.map((p) => p.key);
    const messages = [];
    for (const { key, values } of planned) {
      const changed = Object.keys(values);
      const rows = changed.length
        ? await itemsRepository.update(db, def, [key], values).catch(mapWriteError)
        : await itemsRepository.select(db, def, [key], true);
      if (rows.length === 0) throw errors.forbidden();
      if (changed.length) messages.push(itemChangeMessage(ctx, collection, 'update', key, rows[0]!, pick(rows[0]!, changed)));
    }
    await enqueueItemChanges(db, collection, messages);
    return { def, keys };
  });
}
