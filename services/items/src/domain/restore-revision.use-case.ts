import { AppError, errors } from '@vellum/errors';
import { jsonEqual, jsonPatch, type Json, type JsonObject, type PatchOp } from '@vellum/contracts';
import { withTransaction } from '@vellum/db';
import { loadCollection } from '../data/catalogue.repository';
import { itemsRepository } from '../data/items.repository';
import type { Credentials, RevisionsClient } from '../data/revisions-client';
import { permits } from './access-rules';
import { fieldOf } from './collection';
import { createItems } from './create-items.use-case';
import type { ChangeContext } from './item-change';
import type { ItemsDeps } from './items-deps';
import { updateItems } from './update-items.use-case';
import { primaryKeyValue } from './validate-write';

/** Where a restore reads its revision (the revisions service, with the caller's credentials). */
export type RevisionSource = Pick<RevisionsClient, 'revision'>;
export type { Credentials };

/** A field of the revision that is not written back, and why. */
export interface Skipped {
  field: string;
  reason: 'dropped' | 'unreadable';
}

/** What a restore does (or did): `update` the item, `create` it again (it was deleted since), or `none` (it is that state already). */
export interface RestoreOutcome {
  revision: number;
  collection: string;
  item: string;
  action: 'update' | 'create' | 'none';
  changed_fields: string[];
  /** RFC 6902 from the item as it is (its readable fields; null when deleted) to the item restored. */
  patch: PatchOp[];
  skipped: Skipped[];
  applied: boolean;
}

/** 403 naming the collection (and the fields) the caller may not write. */
const forbiddenOn = (collection: string, action: string, fields?: string[]) =>
  new AppError('FORBIDDEN', `You may not ${action} ${fields ? `the fields ${fields.join(', ')} of` : 'items of'} "${collection}".`, {
    collection,
    ...(fields ? { fields } : {}),
  });

/** A stored row as its revision holds it (what the item-change event carried: the row through JSON). */
const asJson = (row: Record<string, unknown>): JsonObject => JSON.parse(JSON.stringify(row)) as JsonObject;

/**
 * POST /revisions/:id/restore: writes the item back to that revision's state through the normal write path (one
 * update, or a create when the item was deleted since), recorded as `revert`. Only fields that differ are written
 * (restoring twice writes nothing the second time); fields dropped from the collection since, and fields the caller
 * cannot read, are `skipped`; fields added since keep their value. Needs update rights (create rights to re-create)
 * on every field it writes: otherwise 403 naming the collection, nothing applied. `dryRun`: the outcome, no write.
 */
export async function restoreRevision(
  deps: ItemsDeps,
  ctx: ChangeContext,
  revisions: RevisionSource,
  revisionId: string,
  who: Credentials,
  dryRun: boolean,
): Promise<RestoreOutcome> {
  const rev = await revisions.revision(revisionId, who);
  if (rev.data === null) throw errors.invalidPayload('This revision records a deletion: restore the revision before it.');
  const { collection } = rev;
  const def = await loadCollection(deps.pool, collection);
  if (!def) throw errors.forbidden();
  const key = primaryKeyValue(def, rev.item);
  if (key === undefined) throw errors.forbidden();
  const readable = deps.rules.fields(ctx.accountability, collection, 'read');
  if (!readable) throw errors.forbidden();

  const skipped: Skipped[] = [];
  const target: JsonObject = {};
  for (const [f, v] of Object.entries(rev.data)) {
    if (f === def.primaryKey) continue;
    if (!fieldOf(def, f)) skipped.push({ field: f, reason: 'dropped' });
    else target[f] = v as Json;
  }
  for (const f of def.fields) if (f.field !== def.primaryKey && !permits(readable, f.field)) skipped.push({ field: f.field, reason: 'unreadable' });

  const [current] = await withTransaction(deps.pool, (db) => itemsRepository.selectForUpdate(db, def, [key]));
  const now = current ? asJson(current.row) : null;
  // in the collection's field order
  const changed = def.fields.map((f) => f.field).filter((f) => Object.hasOwn(target, f) && (!now || !jsonEqual(now[f] ?? null, target[f])));
  const action: RestoreOutcome['action'] = !now ? 'create' : changed.length ? 'update' : 'none';
  if (action !== 'none') {
    const allowed = deps.rules.fields(ctx.accountability, collection, action);
    if (!allowed) throw forbiddenOn(collection, action);
    const denied = changed.filter((f) => !permits(allowed, f));
    if (denied.length) throw forbiddenOn(collection, action, denied);
  }
  const visible = (s: JsonObject | null) => (s ? Object.fromEntries(Object.entries(s).filter(([f]) => permits(readable, f))) : null);
  const values = Object.fromEntries(changed.map((f) => [f, target[f]!]));
  const after = { ...(now ?? { [def.primaryKey]: asJson({ k: key }).k! }), ...values };
  const outcome: RestoreOutcome = {
    revision: rev.id,
    collection,
    item: rev.item,
    action,
    changed_fields: changed,
    patch: jsonPatch(visible(now), visible(after)),
    skipped,
    applied: false,
  };
  if (dryRun || action === 'none') return outcome;
  const write = { ...ctx, revert: true };
  if (action === 'create') await createItems(deps, write, collection, { [def.primaryKey]: key, ...values });
  else await updateItems(deps, write, collection, [{ key, data: values }], [current!.version]);
  return { ...outcome, applied: true };
}
