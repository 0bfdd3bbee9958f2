import type { Pool } from 'pg';
import { errors } from '@vellum/errors';
import type { Accountability } from '@vellum/http';
import { asOfRepository, type StateRow } from '../../data/as-of.repository';
import { PastAccess } from '../as-of/past-access';
import { jsonEqual, type Json, type JsonObject } from '@vellum/contracts';
import type { AccessRules } from '../visibility';

/** One side of a comparison: the revision and its state as the caller may read it (null: the item was deleted). */
export interface ComparedSide {
  revision: number;
  at: string;
  state: JsonObject | null;
}

export interface Comparison {
  collection: string;
  item: string;
  from: ComparedSide;
  to: ComparedSide;
  /** The members whose values differ (present on one side only included), in `from`'s order then `to`'s. */
  changed_fields: string[];
}

const REVISION_ID = /^\d{1,18}$/;

/** The members of two states that differ. */
export function changedFields(a: JsonObject | null, b: JsonObject | null): string[] {
  const out: string[] = [];
  const x = a ?? {};
  const y = b ?? {};
  for (const k of Object.keys(x)) if (!Object.hasOwn(y, k) || !jsonEqual(x[k], y[k])) out.push(k);
  for (const k of Object.keys(y)) if (!Object.hasOwn(x, k)) out.push(k);
  return out;
}

/**
 * `GET /revisions/:a/compare/:b`: two revisions of one item (`b` may be `live`: the item's newest revision, which is
 * the item as stored once its history has caught up). Each state is reduced to the fields the caller may read today.
 * A revision that does not exist, is unreadable or belongs to another item than `a`'s → 403 (ids cannot be probed).
 */
export async function compareRevisions(pool: Pool, rules: AccessRules, acc: Accountability | undefined, a: string, b: string): Promise<Comparison> {
  if (!REVISION_ID.test(a) || (b !== 'live' && !REVISION_ID.test(b))) throw errors.forbidden();
  const from = await asOfRepository.byId(pool, a);
  if (!from) throw errors.forbidden();
  const access = new PastAccess(acc, rules, from.collection);
  const to = b === 'live' ? await asOfRepository.head(pool, from.collection, from.item) : await asOfRepository.byId(pool, b);
  if (!to || to.collection !== from.collection || to.item !== from.item) throw errors.forbidden();
  const side = (row: StateRow): ComparedSide => ({
    revision: row.id,
    at: row.timestamp.toISOString(),
    state: row.data === null ? null : (access.reduce(row.data) as JsonObject),
  });
  const x = side(from);
  const y = side(to);
  return { collection: from.collection, item: from.item, from: x, to: y, changed_fields: changedFields(x.state, y.state) };
}

/** The default JSON answer: the changed fields and, for each, its value on both sides. */
export function comparisonBody(c: Comparison): Record<string, unknown> {
  const changes: Record<string, { from: Json | undefined; to: Json | undefined }> = {};
  for (const f of c.changed_fields) changes[f] = { from: c.from.state?.[f], to: c.to.state?.[f] };
  return {
    collection: c.collection,
    item: c.item,
    from: { revision: c.from.revision, at: c.from.at, deleted: c.from.state === null },
    to: { revision: c.to.revision, at: c.to.at, deleted: c.to.state === null },
    changed_fields: c.changed_fields,
    changes,
  };
}
