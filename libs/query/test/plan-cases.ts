// The characterisation table of planQuery: a broad set of inputs and what the planner makes of each ({sql, params}
// of every statement, the shaped rows, the cursor, or the error). `plan-snapshots.json` holds the answers of the
// planner before it was split into stages (issue 21.1); `plan-query.characterisation.test.ts` checks they still hold.
// Regenerate (only for an intended change of the SQL): `node --import tsx libs/query/test/write-plan-snapshots.ts`.
import { parseQuery, planQuery } from '../src';
import { OPTIONS, ROOTS, SCHEMAS } from './plan-case-setup';
import { sampledQueries } from './plan-samples';

export interface PlanCase {
  schema: string;
  options: string;
  /** Raw query as a request gives it (parsed with parseQuery). */
  raw: unknown;
}

const cursor = (k: string, d: number) => Buffer.from(JSON.stringify({ k, d })).toString('base64url');

const f = (filter: unknown) => ({ filter });
/** Hand-picked inputs, per schema: every operator, nesting, order, paging, meta, aggregates, relations, errors. */
const HAND: Record<string, unknown[]> = {
  revisions: [
    {},
    { fields: 'id' },
    { fields: 'id,activity.*,parent.id' },
    { fields: '*.*' },
    { fields: 'activity.*,*' },
    { fields: 'parent.parent.parent.id' },
    { fields: 'parent.parent.parent.parent.id' },
    { fields: 'parent.*.*' },
    { fields: '*,parent.activity.user' },
    { fields: 'id,,item' },
    { fields: 'nope' },
    { fields: 'item.x' },
    { fields: '*.x' },
    { fields: Array.from({ length: 201 }, () => 'id') },
    { fields: '__proto__' },
    f({ collection: { _eq: "x'; DROP TABLE revisions; --" }, item: { _icontains: '50%_' } }),
    f({ id: { _between: '1,5' } }),
    f({ id: { _nbetween: [1, 5] } }),
    f({ id: { _in: [1, 2, '3'] } }),
    f({ id: { _nin: '1,2' } }),
    f({ id: { _in: 7 } }),
    f({ id: { _gte: 3, _lt: 9 } }),
    f({ id: { _gt: '2', _lte: 4 } }),
    f({ parent: { _null: 'true' } }),
    f({ parent: { _nnull: true } }),
    f({ parent: { _null: 0 } }),
    f({ data: { _null: false } }),
    f({ version: { _eq: 'null' } }),
    f({ version: { _neq: null } }),
    f({ version: { _neq: 'v' } }),
    f({ item: { _empty: true } }),
    f({ item: { _empty: false } }),
    f({ item: { _nempty: true } }),
    f({ item: { _nempty: '0' } }),
    ...[
      '_contains',
      '_ncontains',
      '_icontains',
      '_starts_with',
      '_nstarts_with',
      '_istarts_with',
      '_nistarts_with',
      '_ends_with',
      '_nends_with',
      '_iends_with',
      '_niends_with',
    ].map((op) => f({ item: { [op]: 'a\\b%' } })),
    f({ item: { _contains: 5 } }),
    f({ _or: [{ id: { _eq: 1 } }, { _and: [{ item: { _eq: 'a' } }, { collection: { _neq: 'b' } }] }] }),
    f({ _and: [] }),
    f({ _and: [{}, { item: { _eq: 'a' } }] }),
    f({ _or: [{ _or: [{ _or: [{ id: { _eq: 1 } }] }] }], item: { _eq: 'x' } }),
    f({ activity: { timestamp: { _gt: '$NOW(-7 days)' }, user: { _eq: '$CURRENT_USER' } } }),
    f({ activity: { timestamp: { _lte: '$NOW' } } }),
    f({ activity: { timestamp: { _lte: '$NOW(+1 month)' }, _or: [{ action: { _eq: 'create' } }, { action: { _eq: 'update' } }] } }),
    f({ version: { _eq: '$CURRENT_ROLE' } }),
    f({ parent: { parent: { activity: { user: { _eq: 'x' } } } } }),
    f({ parent: { parent: { parent: { id: { _eq: 1 } } } } }),
    f({ parent: { _null: false, id: { _gt: 3 } } }),
    f({ parent: { id: { _eq: 2 } }, activity: { id: { _eq: 3 } } }),
    f({ id: { _lt: '$NOW(-7 fortnights)' } }),
    f({ data: { _eq: 'x' } }),
    f({ id: { _contains: '1' } }),
    f({ id: { _eq: 'abc' } }),
    f({ item: { _eq: '' } }),
    f({ item: { _eq: { a: 1 } } }),
    f({ id: { _lt: null } }),
    f({ id: { _in: [] } }),
    f({ id: { _in: [null] } }),
    f({ id: { _in: { a: 1 } } }),
    f({ id: { _between: [1] } }),
    f({ id: { _between: [1, 2, 3] } }),
    f({ id: { _bogus: 1 } }),
    f({ id: 1 }),
    f({ id: {} }),
    f({ _xor: [] }),
    f({ _and: {} }),
    f({ _or: [1] }),
    f({ nope: { _eq: 1 } }),
    f({ activity: { nope: { _eq: 1 } } }),
    f({ parent: { _null: 'maybe' } }),
    f(JSON.parse('{"__proto__":{"_eq":1}}')),
    f({ constructor: { _eq: 1 } }),
    f(Array.from({ length: 14 }).reduce<unknown>((acc) => ({ _and: [acc] }), { id: { _eq: 1 } })),
    f({ _or: Array.from({ length: 501 }, (_, i) => ({ id: { _eq: i } })) }),
    { search: 'Art' },
    { search: '42' },
    { search: '4.5' },
    { search: "a'b%" },
    { search: 'x', filter: { id: { _gt: 1 } } },
    { sort: '-activity.timestamp,item' },
    { sort: '?' },
    { sort: 'item,id' },
    { sort: '-id' },
    { sort: 'parent.parent.id' },
    { sort: 'constructor' },
    { sort: 'activity.nope' },
    { sort: 'data' },
    { sort: 'a.b.c.d.e' },
    { limit: '-1' },
    { limit: '0' },
    { limit: '10', offset: '20' },
    { limit: '10', page: '3' },
    { limit: '-1', offset: '5' },
    { offset: '900000', limit: '25', sort: '-id' },
    { offset: '900000', limit: '25' },
    { offset: '999990', limit: '25' },
    { offset: '2000000', limit: '25' },
    { offset: '5000', sort: 'item', limit: '5' },
    { offset: '5000', sort: '?' },
    { offset: '60000', limit: '25', filter: { collection: { _eq: 'a' } }, fields: 'id,activity.user' },
    { offset: '600', limit: '-1', sort: '-id' },
    { offset: '600', limit: '7', fields: 'id,parent.item', sort: 'parent.item' },
    { limit: '2', sort: '-id', after: cursor('9', 1) },
    { limit: '2', sort: 'id', after: cursor('9', 0), filter: { item: { _eq: 'a' } } },
    { limit: '2', after: cursor('9', 1) },
    { limit: '2', sort: 'item', after: cursor('9', 0) },
    { after: 'not-a-cursor' },
    { after: cursor('x', 0) },
    { after: Buffer.from('[1]').toString('base64url') },
    { offset: '5000', limit: '3', after: cursor('9', 0) },
    { meta: '*' },
    { meta: 'filter_count', filter: { collection: { _eq: 'c7' } } },
    { meta: 'total_count', search: 'x' },
    { aggregate: { count: '*', max: 'id', countDistinct: 'item' }, groupBy: 'collection', sort: '-collection' },
    { aggregate: { count: '*' } },
    { aggregate: { count: '*,id' } },
    { aggregate: { count: 'id', min: 'activity.timestamp', avg: 'id', sum: 'parent' } },
    { aggregate: { count: '*' }, groupBy: 'collection,activity.action', filter: { id: { _gt: 5 } }, search: 'q', limit: '5', offset: '10' },
    { aggregate: { count: '*' }, groupBy: 'data,parent.delta' },
    { aggregate: { count: '*' }, sort: '?' },
    { aggregate: { max: 'item' }, groupBy: 'collection', sort: 'collection,-item' },
    { groupBy: 'collection' },
    { groupBy: 'collection', offset: '5000', limit: '3' },
    { aggregate: { sum: 'item' } },
    { aggregate: { avg: '*' } },
    { aggregate: { min: 'data' } },
    { aggregate: { countDistinct: 'data' } },
    { aggregate: { count: 'nope' } },
    { aggregate: { count: '*' }, groupBy: 'collection', sort: 'item' },
    { aggregate: { count: '*' }, groupBy: Array.from({ length: 21 }, () => 'id') },
    { aggregate: { count: Array.from({ length: 101 }, () => 'id') } },
    { aggregate: { count: '*' }, after: cursor('1', 0), sort: 'id' },
  ],
  items: [
    {},
    { fields: '*.*' },
    { fields: 'id,author.mentor.mentor.name' },
    { fields: 'secret' },
    { fields: 'author.password' },
    f({ title: { _starts_with: 'x' }, body: { _ncontains: 'y' } }),
    f({ score: { _gt: 1.5 }, price: { _lte: '10.25' }, views: { _between: ['1', '9'] } }),
    f({ score: { _eq: 'Infinity' } }),
    f({ price: { _eq: '1e400' } }),
    f({ views: { _eq: '9223372036854775808' } }),
    f({ views: { _eq: 12.5 } }),
    f({ published: { _eq: true } }),
    f({ published: { _neq: '0' } }),
    f({ published: { _eq: 'yes' } }),
    f({ published: { _in: [true] } }),
    f({ token: { _eq: 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11' } }),
    f({ token: { _in: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12' } }),
    f({ token: { _eq: 'nope' } }),
    f({ meta: { _nnull: true } }),
    f({ day: { _gte: '2026-01-01' }, at: { _lt: '$NOW(-1 year)' }, stamp: { _between: ['2026-01-01T00:00:00Z', '$NOW'] } }),
    f({ day: { _eq: 86400000 } }),
    f({ day: { _eq: '10000-01-01' } }),
    f({ at: { _in: ['2026-01-01 10:00', '$NOW(+3 hours)'] } }),
    f({ secret: { _null: true } }),
    f({ author: { password: { _null: true } } }),
    f({ author: { name: { _eq: 'a' }, mentor: { name: { _eq: 'b' } } } }),
    f({ author: { _nnull: true } }),
    { search: '12' },
    { search: '1.5' },
    { search: '-.5' },
    { search: 'a\u0000' },
    { search: 'plain' },
    { sort: '-author.name,score' },
    { sort: 'secret' },
    { groupBy: 'published,day', aggregate: { avg: 'score', sum: 'price', min: 'at', max: 'stamp', countDistinct: 'token' } },
    { groupBy: 'author.name', aggregate: { count: 'author' } },
    { aggregate: { count: 'secret' } },
    { aggregate: { countDistinct: 'meta' } },
    { aggregate: { min: 'published' } },
    { offset: '50', limit: '10', fields: 'id,author.name' },
    { limit: '3', after: cursor('7', 0) },
    { limit: '3', sort: '-id', after: cursor('7', 1), search: 'x' },
  ],
};

/** For `shallow`, `deep`, `seek` and `permissions`, a cross-section is enough. */
const OPTION_SETS: Record<string, string[]> = {
  revisions: ['plain', 'anonymous', 'permissions', 'reduce', 'jsonText', 'deep', 'seek', 'shallow'],
  items: ['plain', 'permissions', 'reduce', 'jsonText', 'deep', 'shallow'],
};
export function planCases(): PlanCase[] {
  const out: PlanCase[] = [];
  for (const [schema, raws] of Object.entries(HAND)) for (const options of OPTION_SETS[schema]!) for (const raw of raws) out.push({ schema, options, raw });
  sampledQueries().forEach((raw, i) => out.push({ schema: 'revisions', options: i % 2 ? 'permissions' : 'reduce', raw }));
  return out;
}

function failure(e: unknown): string {
  const err = e as { code?: string; message?: string };
  return `${err.code ?? 'Error'}: ${err.message}`;
}

function attempt<T>(fn: () => T): T | { error: string } {
  try {
    return fn();
  } catch (e) {
    return { error: failure(e) };
  }
}

/** A database row for every column alias the statement selects: JSON text (valid for jsonText), numbers for aggregates. */
function rowsFor(text: string, filled: boolean): Record<string, unknown> {
  const row: Record<string, unknown> = { _k: filled ? '99' : null };
  for (const m of text.matchAll(/ AS "([cga]\d+)"/g)) {
    const a = m[1]!;
    row[a] = !filled ? null : a.startsWith('c') ? `{"k":"${a}"}` : a.startsWith('a') ? `${a.length + 3}` : `g-${a}`;
  }
  return row;
}

/** Everything a plan produces for one case (or the error it throws), as JSON. */
export function runCase(c: PlanCase): unknown {
  let plan;
  try {
    plan = planQuery(SCHEMAS[c.schema]!, ROOTS[c.schema]!, parseQuery(c.raw, { limitMax: 1000 }), OPTIONS[c.options]);
  } catch (e) {
    return { error: failure(e) };
  }
  const list = attempt(() => plan.list());
  const out: Record<string, unknown> = {
    kind: plan.kind,
    keyset: plan.keyset,
    list,
    total: attempt(() => plan.count('total')),
    filter: attempt(() => plan.count('filter')),
    one: attempt(() => plan.one('7')),
    oneBad: attempt(() => plan.one('x')),
  };
  if ('text' in list) {
    const rows = [rowsFor(list.text, true), rowsFor(list.text, false)];
    out.shape = attempt(() => plan.shape(rows));
    const limit = plan.query.limit;
    out.cursor = attempt(() => plan.nextCursor(limit > 0 && limit <= 25 ? Array.from({ length: limit }, () => rows[0]!) : rows));
  }
  return JSON.parse(JSON.stringify(out));
}
