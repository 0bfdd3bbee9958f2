import { errors } from '@vellum/errors';
import { loadCollection } from '../data/catalogue.repository';
import { withTransaction } from '@vellum/db';
import { itemsRepository } from '../data/items.repository';
import type { CollectionDef } from './collection';
import { mapWriteError } from './db-errors';
import { enqueueItemChanges } from './enqueue-item-changes';
import { itemChangeMessage, pick, type ChangeContext } from './item-change';
import type { ItemsDeps } from './items-deps';
import { validateWrite } from './validate-write';

/**
 * POST /items/:collection: one object or an array. All items and one `create` event per item commit in one
 * transaction; any invalid item aborts the whole write (and so produces no event).
 */
export async function createItems(
  deps: ItemsDeps,
  ctx: ChangeContext,
  collection: string,
  body: Record<string, unknown> | Record<string, unknown>[],
): Promise<{ def: CollectionDef; keys: unknown[] }> {
  const allowed = deps.rules.fields(ctx.accountability, collection, 'create');
  if (!allowed) throw errors.forbidden();
  const payloads = Array.isArray(body) ? body : [body];
  return withTransaction(deps.pool, async (db) => {
    const def = await loadCollection(db, collection, true);
    if (!def) throw errors.forbidden();
    const all = payloads.map((p) => validateWrite(def, p, allowed, 'create'));
    const keys: unknown[] = [];
    const messages = [];
    for (const values of all) {
      const row = await itemsRepository.insert(db, def, values).catch(mapWriteError);
      const key = row[def.primaryKey];
      keys.push(key);
      messages.push(itemChangeMessage(ctx, collection, 'create', key, row, pick(row, Object.keys(values))));
    }
    await enqueueItemChanges(db, collection, messages);
    return { def, keys };
  });
}
