import { AppError } from '@vellum/errors';
import { jsonEqual, jsonPatch, type Json, type JsonObject, type PatchOp } from '@vellum/contracts';
import type { Accountability } from '@vellum/http';
import { loadCollection } from '../data/catalogue.repository';
import { itemsRepository, type Written } from '../data/items.repository';
import type { Queryable } from '../data/items-pool';
import type { ReadRevision } from '../data/revisions-client';
import { permits } from './access-rules';
import { fieldOf, type CollectionDef } from './collection';
import type { ItemsDeps } from './items-deps';
import { primaryKeyValue } from './validate-write';

/**
 * A field of the revision that is not written back, and why (`*`: the whole row, its collection dropped or
 * unreadable; a one-to-many field `unreadable`: the children through it, if the write had any, are not restored).
 */
export interface Skipped {
  field: string;
  reason: 'dropped' | 'unreadable';
}

/**
 * What a restore does (or did) to one row: `update` it, `create` it again (it was deleted since), `delete` it again
 * (its revision records that the write deleted it), or `none` (it is that state already).
 */
export interface RestoreOutcome {
  revision: number;
  collection: string;
  item: string;
  action: 'update' | 'create' | 'delete' | 'none';
  changed_fields: string[];
  /** RFC 6902 from the item as it is (its readable fields; null when deleted) to the item restored (null: deleted). */
  patch: PatchOp[];
  skipped: Skipped[];
  applied: boolean;
  /** The rows of the revision's tree (a nested write), each restored with it: one per row, in the write's order. */
  children?: RestoreOutcome[];
}

/** One row of a restore, planned: its current row (locked) and the values to write. */
export interface RowPlan {
  def: CollectionDef;
  key: string | number;
  current: Written | undefined;
  values: JsonObject;
  outcome: RestoreOutcome;
}

/** 403 naming the collection (and the fields) the caller may not write. */
export const forbiddenOn = (collection: string, action: string, fields?: string[]) =>
  new AppError('FORBIDDEN', `You may not ${action} ${fields ? `the fields ${fields.join(', ')} of` : 'items of'} "${collection}".`, {
    collection,
    ...(fields ? { fields } : {}),
  });

/** A stored row as its revision holds it (what the item-change event carried: the row through JSON). */
const asJson = (row: Record<string, unknown>): JsonObject => JSON.parse(JSON.stringify(row)) as JsonObject;

/** A row left alone as a whole: its collection is gone (`dropped`) or not readable. */
export const rowSkipped = (rev: ReadRevision, reason: Skipped['reason']): RestoreOutcome => ({
  revision: rev.id,
  collection: rev.collection,
  item: rev.item,
  action: 'none',
  changed_fields: [],
  patch: [],
  skipped: [{ field: '*', reason }],
  applied: false,
});

/**
 * Plans putting one row back to `rev`'s state (`removes`: the revision records its deletion, so it goes again),
 * its row locked in `db`'s transaction. Only fields that differ are written; fields dropped since and fields the
 * caller cannot read are `skipped`; fields added since keep their value. Undefined: the collection is gone or unreadable.
 */
export async function planRow(
  db: Queryable,
  deps: ItemsDeps,
  acc: Accountability | undefined,
  rev: ReadRevision,
  removes: boolean,
  share = false,
): Promise<RowPlan | RestoreOutcome> {
  const { collection } = rev;
  const def = await loadCollection(db, collection, share);
  const key = def ? primaryKeyValue(def, rev.item) : undefined;
  if (!def || key === undefined) return rowSkipped(rev, 'dropped');
  const readable = deps.rules.fields(acc, collection, 'read');
  if (!readable) return rowSkipped(rev, 'unreadable');

  const skipped: Skipped[] = [];
  const target: JsonObject = {};
  for (const [f, v] of Object.entries(rev.data ?? {})) {
    if (f === def.primaryKey) continue;
    if (!fieldOf(def, f)) skipped.push({ field: f, reason: 'dropped' });
    else target[f] = v as Json;
  }
  for (const f of def.fields) if (f.field !== def.primaryKey && !permits(readable, f.field)) skipped.push({ field: f.field, reason: 'unreadable' });
  // children through a one-to-many field whose collection the caller cannot read: hidden from it, so not restored
  for (const r of def.relations) {
    const alias = r.related_collection === collection ? r.meta.one_field : null;
    if (alias && !deps.rules.fields(acc, r.collection, 'read') && !skipped.some((s) => s.field === alias)) skipped.push({ field: alias, reason: 'unreadable' });
  }

  const [current] = await itemsRepository.selectForUpdate(db, def, [key]);
  const now = current ? asJson(current.row) : null;
  // in the collection's field order
  const changed = removes ? [] : def.fields.map((f) => f.field).filter((f) => Object.hasOwn(target, f) && (!now || !jsonEqual(now[f] ?? null, target[f])));
  const action: RestoreOutcome['action'] = removes ? (now ? 'delete' : 'none') : !now ? 'create' : changed.length ? 'update' : 'none';
  const visible = (s: JsonObject | null) => (s ? Object.fromEntries(Object.entries(s).filter(([f]) => permits(readable, f))) : null);
  const values = Object.fromEntries(changed.map((f) => [f, target[f]!]));
  const after = removes ? null : { ...(now ?? { [def.primaryKey]: asJson({ k: key }).k! }), ...values };
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
  return { def, key, current, values, outcome };
}

/** Needs the rights of the row's action: create/update on every field it writes, delete on the collection (else 403, naming it). */
export function checkRights(deps: ItemsDeps, acc: Accountability | undefined, { action, collection, changed_fields }: RestoreOutcome): void {
  if (action === 'none') return;
  const allowed = deps.rules.fields(acc, collection, action);
  if (!allowed) throw forbiddenOn(collection, action);
  const denied = changed_fields.filter((f) => !permits(allowed, f));
  if (denied.length) throw forbiddenOn(collection, action, denied);
}

export const isPlan = (p: RowPlan | RestoreOutcome): p is RowPlan => 'def' in p;
