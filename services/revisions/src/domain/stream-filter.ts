import { errors } from '@vellum/errors';
import { resolveDynamic, type ValueContext } from '@vellum/query';
import type { FeedRow } from '../data/feed.repository';

/** SQL's three values: a row passes a filter only when it is `true`. */
type Tri = boolean | null;
export type RowTest = (row: FeedRow) => Tri;

type Kind = 'number' | 'string' | 'time';
/** The fields of a revision a stream's filter may name, with how they compare (as their SQL types do). */
const REVISION_FIELDS: Record<string, [Kind, (r: FeedRow) => unknown]> = {
  id: ['number', (r) => r.id],
  activity: ['number', (r) => r.activity],
  collection: ['string', (r) => r.collection],
  item: ['string', (r) => r.item],
  parent: ['number', (r) => r.parent],
};
const ACTIVITY_FIELDS: Record<string, [Kind, (r: FeedRow) => unknown]> = {
  id: ['number', (r) => r.activity],
  action: ['string', (r) => r.action],
  user: ['string', (r) => r.user],
  timestamp: ['time', (r) => r.timestamp],
  ip: ['string', (r) => r.ip],
  user_agent: ['string', (r) => r.user_agent],
  collection: ['string', (r) => r.activity_collection],
  item: ['string', (r) => r.activity_item],
  origin: ['string', (r) => r.origin],
  comment: ['string', (r) => r.comment],
};

const unsupported = (what: string) => errors.invalidQuery(`The revision stream cannot filter on ${what}.`);

function flag(op: string, v: unknown): boolean {
  if (v === true || v === 1 || v === '1') return true;
  if (v === false || v === 0 || v === '0') return false;
  throw errors.invalidQuery(`"${op}" needs true or false.`);
}

/** A filter value as the field's type compares it (the planner's typed parameter); 400 when it cannot be one. */
function typed(kind: Kind, field: string, v: unknown): number | string {
  if (kind === 'number') {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d{1,16}$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n)) throw errors.invalidQuery(`Invalid bigInteger value for "${field}".`);
    return n;
  }
  if (kind === 'time') {
    const t = v instanceof Date ? v.getTime() : typeof v === 'string' ? Date.parse(v) : NaN;
    if (Number.isNaN(t)) throw errors.invalidQuery(`Invalid timestamp value for "${field}".`);
    return t;
  }
  if (typeof v === 'object' && v !== null) throw errors.invalidQuery(`"${field}" needs a scalar value.`);
  return String(v);
}

const valueOf = (kind: Kind, v: unknown): number | string | null => {
  if (v === null || v === undefined) return null;
  if (kind === 'time') return (v as Date).getTime();
  return v as number | string;
};

const list = (op: string, raw: unknown, ctx: ValueContext): unknown[] => {
  const arr = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : typeof raw === 'number' ? [raw] : null;
  if (!arr || arr.length === 0) throw errors.invalidQuery(`"${op}" needs a non-empty array.`);
  return arr.map((x) => resolveDynamic(x, ctx));
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One operator on one field → its test (SQL semantics: comparisons with NULL are unknown). */
function operator(kind: Kind, field: string, get: (r: FeedRow) => unknown, op: string, raw: unknown, ctx: ValueContext): RowTest {
  const value = resolveDynamic(raw, ctx);
  const of = (r: FeedRow) => valueOf(kind, get(r));
  switch (op) {
    case '_eq':
    case '_neq': {
      if (value === null) return op === '_eq' ? (r) => of(r) === null : (r) => of(r) !== null;
      const want = typed(kind, field, value);
      return (r) => {
        const v = of(r);
        return v === null ? null : (v === want) === (op === '_eq');
      };
    }
    case '_in':
    case '_nin': {
      const set = new Set(list(op, raw, ctx).map((x) => typed(kind, field, x)));
      return (r) => {
        const v = of(r);
        return v === null ? null : set.has(v) === (op === '_in');
      };
    }
    case '_null':
    case '_nnull': {
      const isNull = flag(op, value) === (op === '_null');
      return (r) => (of(r) === null) === isNull;
    }
    case '_lt':
    case '_lte':
    case '_gt':
    case '_gte':
    case '_between':
    case '_nbetween': {
      if (kind === 'string') throw unsupported(`"${field}" with ${op}`);
      const bounds =
        op === '_between' || op === '_nbetween' ? list(op, raw, ctx).map((x) => typed(kind, field, x) as number) : [typed(kind, field, value) as number];
      if ((op === '_between' || op === '_nbetween') && bounds.length !== 2) throw errors.invalidQuery(`"${op}" needs exactly two values.`);
      const [a, b] = bounds as [number, number];
      const test: Record<string, (v: number) => boolean> = {
        _lt: (v) => v < a,
        _lte: (v) => v <= a,
        _gt: (v) => v > a,
        _gte: (v) => v >= a,
        _between: (v) => v >= a && v <= b,
        _nbetween: (v) => !(v >= a && v <= b),
      };
      const t = test[op]!;
      return (r) => {
        const v = of(r);
        return v === null ? null : t(v as number);
      };
    }
    case '_empty':
    case '_nempty': {
      const empty = flag(op, value) === (op === '_empty');
      return (r) => {
        const v = of(r);
        return (v === null || v === '') === empty;
      };
    }
    default: {
      const like = /^_(n?)(i?)(contains|starts_with|ends_with)$/.exec(op);
      if (!like || kind !== 'string') throw errors.invalidQuery(`Operator not valid for field "${field}".`);
      if (value === null || value === '' || typeof value === 'object') throw errors.invalidQuery(`"${op}" needs a text value.`);
      const [, neg, ci, where] = like;
      const s = escape(String(value));
      const re = new RegExp(where === 'contains' ? s : where === 'starts_with' ? `^${s}` : `${s}$`, ci ? 'is' : 's');
      return (r) => {
        const v = of(r);
        return v === null ? null : re.test(v as string) !== (neg === 'n');
      };
    }
  }
}

const and =
  (tests: RowTest[]): RowTest =>
  (r) => {
    let unknown = false;
    for (const t of tests) {
      const v = t(r);
      if (v === false) return false;
      if (v === null) unknown = true;
    }
    return unknown ? null : true;
  };
const or =
  (tests: RowTest[]): RowTest =>
  (r) => {
    let unknown = false;
    for (const t of tests) {
      const v = t(r);
      if (v === true) return true;
      if (v === null) unknown = true;
    }
    return unknown ? null : false;
  };

function node(filter: unknown, fields: Record<string, [Kind, (r: FeedRow) => unknown]>, path: string, ctx: ValueContext): RowTest {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) throw errors.invalidQuery('Invalid filter.');
  const tests: RowTest[] = [];
  for (const [k, v] of Object.entries(filter)) {
    if (k === '_and' || k === '_or') {
      if (!Array.isArray(v)) throw errors.invalidQuery(`"${k}" needs an array.`);
      const subs = v.map((x) => node(x, fields, path, ctx));
      tests.push(k === '_and' ? and(subs) : or(subs));
      continue;
    }
    if (
      path === '' &&
      k === 'activity' &&
      typeof v === 'object' &&
      v !== null &&
      Object.keys(v).some((x) => !x.startsWith('_') || x === '_and' || x === '_or')
    ) {
      tests.push(node(v, ACTIVITY_FIELDS, 'activity.', ctx));
      continue;
    }
    const def = fields[k];
    if (!def) throw unsupported(`"${path}${k}"`);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw errors.invalidQuery(`Invalid filter on "${path}${k}".`);
    for (const [op, raw] of Object.entries(v)) tests.push(operator(def[0], `${path}${k}`, def[1], op, raw, ctx));
  }
  return and(tests);
}

/**
 * A `/revisions` filter as a test of a revision in memory, with the planner's semantics (SQL's NULLs included): the
 * revision's own fields (id, activity, collection, item, parent) and its activity's (`activity.action`, `.user`,
 * `.timestamp`, …). Anything else is 400 INVALID_QUERY (the stream never reads the database per revision).
 */
export function compileFilter(filter: Record<string, unknown> | null, ctx: ValueContext): (row: FeedRow) => boolean {
  if (!filter) return () => true;
  const test = node(filter, REVISION_FIELDS, '', ctx);
  return (row) => test(row) === true;
}
