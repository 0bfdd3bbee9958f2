import { errors } from '@vellum/errors';
import { withTransaction } from '@vellum/db';
import { mapDeleteError } from './db-errors';
import { retryWrite } from './retry-on-schema-change';
import { writeDef } from './catalogue-defs';
import { itemsRepository } from '../data/items.repository';
import { enqueueItemChanges } from './enqueue-item-changes';
import { itemChangeMessage, type ChangeContext } from './item-change';
import type { ItemsDeps } from './items-deps';
import { primaryKeyValue } from './validate-write';
import type { IfMatch } from './update-items.use-case';

/**
 * DELETE /items/:collection[/:id]: every key must exist (else 403, nothing is deleted); one `delete` event each.
 * `ifMatch`: an item whose version is another is 412 PRECONDITION_FAILED (checked by the delete's statement).
 * Returns each key (as stored) with the version its delete got, in the order of the keys (duplicates dropped).
 */
export async function deleteItems(
  deps: ItemsDeps,
  ctx: ChangeContext,
  collection: string,
  rawKeys: unknown[],
  ifMatch: IfMatch = null,
): Promise<{ key: unknown; version: number }[]> {
  if (!deps.rules.fields(ctx.accountability, collection, 'delete')) throw errors.forbidden();
  await deps.history?.admit();
  return retryWrite((cached) =>
    withTransaction(deps.pool, async (db) => {
      const def = await writeDef(deps, db, collection, cached);
      if (!def) throw errors.forbidden();
      const keys = [...new Set(rawKeys.map((k) => primaryKeyValue(def, k)))];
      if (keys.some((k) => k === undefined)) throw errors.forbidden();
      if (keys.length === 0) return [];
      const deleted = new Map(
        (await itemsRepository.delete(db, def, keys, ifMatch).catch(mapDeleteError)).map((w) => [String(w.row[def.primaryKey]), w.version]),
      );
      if (keys.some((k) => !deleted.has(String(k)))) throw errors.forbidden();
      if ([...deleted.values()].some(Number.isNaN)) throw errors.preconditionFailed();
      await enqueueItemChanges(
        db,
        keys.map((k) => ({ message: itemChangeMessage(ctx, collection, 'delete', k, null, null), version: deleted.get(String(k))! })),
      );
      return keys.map((k) => ({ key: k, version: deleted.get(String(k))! }));
    }),
  );
}
