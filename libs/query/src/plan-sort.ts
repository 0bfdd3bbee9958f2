import { errors } from '@vellum/errors';
import { col, isPlainObject, ROOT, type PlanContext } from './plan-context';
import type { SortKey } from './query';
import type { Statement } from './statement';
import { typedValue } from './values';

/** The order of a list: its keys, whether it is the primary key alone (keyset paging) and the decoded `after`. */
export interface OrderPlan {
  /** Empty for random order; the primary key ascending by default. */
  sortKeys: SortKey[];
  /** Ordered by the primary key only: `after` cursors and `seek` apply. */
  keyset: boolean;
  keysetDesc: boolean;
  /** The primary key value of the `after` cursor, typed. */
  after: string | undefined;
}

/** The order of the query; 400 for an `after` cursor that is invalid or not for this order. */
export function planSort(ctx: PlanContext): OrderPlan {
  const { query, root, rootPk } = ctx;
  const sortKeys = query.random ? [] : (query.sort ?? [{ path: root.primaryKey, desc: false }]);
  const keyset = !query.random && sortKeys.length === 1 && sortKeys[0]!.path === root.primaryKey;
  const keysetDesc = keyset && sortKeys[0]!.desc;
  let after: string | undefined;
  if (query.after) {
    if (!keyset) throw errors.invalidQuery('"after" needs the order to be by the primary key only.');
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(query.after, 'base64url').toString('utf8'));
    } catch {
      throw errors.invalidQuery('Invalid "after" cursor.');
    }
    if (!isPlainObject(decoded) || decoded.d !== (keysetDesc ? 1 : 0)) throw errors.invalidQuery('Invalid "after" cursor.');
    after = String(typedValue('after', rootPk.type, decoded.k));
  }
  return { sortKeys, keyset, keysetDesc, after };
}

/** ` ORDER BY …`: the sort keys (projected values, relations joined), then the primary key as tie-breaker. */
export function orderBySql(s: Statement, order: OrderPlan, reverse = false): string {
  const { query, root, rootPk } = s.ctx;
  if (query.random) return ' ORDER BY random()';
  const dir = (desc: boolean) => (desc !== reverse ? 'DESC' : 'ASC');
  const terms = order.sortKeys.map((k) => `${s.value(k.path).expr} ${dir(k.desc)}`);
  if (!order.sortKeys.some((k) => k.path === root.primaryKey)) terms.push(`${ROOT}.${col(root.primaryKey, rootPk)} ${dir(false)}`);
  return ` ORDER BY ${terms.join(', ')}`;
}

/** The `after` cursor of the page following `rows` (a full page of a keyset order), else null. */
export function nextCursor(order: OrderPlan, limit: number, rows: Record<string, unknown>[]): string | null {
  if (!order.keyset || limit <= 0 || rows.length < limit) return null;
  const last = rows[rows.length - 1]!._k;
  if (last === null || last === undefined) return null;
  return Buffer.from(JSON.stringify({ k: String(last), d: order.keysetDesc ? 1 : 0 })).toString('base64url');
}
