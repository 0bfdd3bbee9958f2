import { errors } from '@vellum/errors';
import { withTransaction } from '@vellum/db';
import { itemsRepository } from '../data/items.repository';
import { mapWriteError } from './db-errors';
import { retryWrite } from './retry-on-schema-change';
import { lockedForTree, writeDef } from './catalogue-defs';
import { enqueueItemChanges, type VersionedChange } from './enqueue-item-changes';
import { itemChangeMessage, pick, type ChangeContext } from './item-change';
import type { ItemsDeps } from './items-deps';
import type { WriteResult } from './update-items.use-case';
import { validateWrite } from './validate-write';
import { isNested } from './nested/nested-payload';
import { createTrees } from './nested/write-tree';
import { createOneInStatement } from './one-statement-write';

/**
 * POST /items/:collection: one object or an array. All items and one `create` event per item commit in one
 * transaction; any invalid item aborts the whole write (and so produces no event).
 */
export async function createItems(
  deps: ItemsDeps,
  ctx: ChangeContext,
  collection: string,
  body: Record<string, unknown> | Record<string, unknown>[],
): Promise<WriteResult> {
  const allowed = deps.rules.fields(ctx.accountability, collection, 'create');
  if (!allowed) throw errors.forbidden();
  await deps.history?.admit();
  const payloads = Array.isArray(body) ? body : [body];
  return retryWrite(
    async (cached) =>
      (cached && (await createOneInStatement(deps, ctx, collection, body, allowed))) ||
      withTransaction(deps.pool, async (db) => {
        const def = await writeDef(deps, db, collection, cached);
        if (!def) throw errors.forbidden();
        if (payloads.some((p) => isNested(def, p))) return createTrees(db, deps, ctx, await lockedForTree(db, def, cached), payloads);
        const all = payloads.map((p) => validateWrite(def, p, allowed, 'create'));
        // keys named by the list: the sequence moves past them first, so no key it generates below is one of them
        const named = all.filter((values) => values[def.primaryKey] !== undefined).map((values) => values[def.primaryKey]);
        if (named.length) await itemsRepository.advanceIdentity(db, def, named);
        const result: WriteResult = { def, keys: [], rows: [], versions: [] };
        const changes: VersionedChange[] = [];
        for (const values of all) {
          const { row, version } = await itemsRepository.insert(db, def, values).catch(mapWriteError);
          const key = row[def.primaryKey];
          result.keys.push(key);
          result.rows.push(row);
          result.versions.push(version);
          changes.push({ message: itemChangeMessage(ctx, collection, 'create', key, row, pick(row, Object.keys(values))), version });
        }
        await enqueueItemChanges(db, changes);
        return result;
      }),
  );
}
