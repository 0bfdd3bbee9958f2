import fc from 'fast-check';
import { isAppError } from '@vellum/errors';
import { parseQuery } from './parse-query';
import { planQuery } from './plan-query';
import type { Sql } from './params';
import { schema } from '../test/fixtures';

const MARK = 'ZQX';
/** Hostile text: always carries the marker, so we can prove it never reaches the SQL text. */
const hostile = fc
  .tuple(
    fc.string({ maxLength: 12 }),
    fc.constantFrom("'", '"', ';', '--', '/*', '$1', '\\', '%', '_', ')', '\u0000', '.', ',', '*', '-', ''),
    fc.string({ maxLength: 6 }),
  )
  .map(([a, b, c]) => `${a}${MARK}${b}${c}`);
const knownField = fc.constantFrom(
  'id',
  'activity',
  'collection',
  'item',
  'data',
  'delta',
  'parent',
  'version',
  'activity.timestamp',
  'activity.user',
  'parent.collection',
  'activity.*',
  '*',
  '*.*',
  '__proto__',
  'constructor',
);
const fieldName = fc.oneof(knownField, hostile);
const op = fc.oneof(
  fc.constantFrom(
    '_eq',
    '_neq',
    '_lt',
    '_lte',
    '_gt',
    '_gte',
    '_in',
    '_nin',
    '_between',
    '_nbetween',
    '_null',
    '_nnull',
    '_contains',
    '_icontains',
    '_nstarts_with',
    '_iends_with',
    '_empty',
    '_nempty',
    '_and',
    '_or',
  ),
  hostile,
);
const scalar = fc.oneof(
  hostile,
  fc.constantFrom(
    '$NOW',
    '$NOW(-7 days)',
    '$NOW(+1 ZQXs)',
    '$CURRENT_USER',
    '$CURRENT_ROLE',
    'true',
    'false',
    'null',
    '',
    '1,2',
    '2026-01-01',
    '9999999999999999999999',
  ),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(hostile, scalar, { maxKeys: 2 }));
const { filter } = fc.letrec((tie) => ({
  filter: fc.oneof(
    { depthSize: 'small' },
    fc.dictionary(fieldName, fc.oneof(fc.dictionary(op, value, { maxKeys: 3 }), tie('filter'), value), { maxKeys: 3 }),
    fc.record({ _and: fc.array(tie('filter'), { maxLength: 3 }) }),
    fc.record({ _or: fc.oneof(fc.array(tie('filter'), { maxLength: 3 }), value) }),
  ),
}));
const listOf = (arb: fc.Arbitrary<string>) =>
  fc.oneof(
    arb,
    fc.array(arb, { maxLength: 4 }),
    fc.array(arb, { maxLength: 4 }).map((a) => a.join(',')),
  );
const rawQuery = fc.record(
  {
    fields: listOf(fieldName),
    sort: listOf(
      fc.oneof(
        fieldName,
        fieldName.map((f) => `-${f}`),
        fc.constant('?'),
      ),
    ),
    filter: fc.oneof(
      filter,
      filter.map((f) => JSON.stringify(f)),
      hostile,
    ),
    search: fc.oneof(hostile, fc.constant('42')),
    limit: fc.oneof(hostile, fc.constantFrom('-1', '0', '25', '-5', '1e3'), fc.integer()),
    offset: fc.oneof(hostile, fc.constantFrom('0', '5000'), fc.integer()),
    page: fc.oneof(hostile, fc.constantFrom('0', '2')),
    meta: listOf(fc.oneof(hostile, fc.constantFrom('*', 'total_count', 'filter_count'))),
    aggregate: fc.oneof(fc.dictionary(fc.oneof(fc.constantFrom('count', 'sum', 'min', 'countDistinct'), hostile), listOf(fieldName), { maxKeys: 2 }), hostile),
    groupBy: listOf(fieldName),
    after: fc.oneof(hostile, fc.constant(Buffer.from(JSON.stringify({ k: `1${MARK}`, d: 0 })).toString('base64url'))),
  },
  { requiredKeys: [] },
);

/** Every `$n` in the text has a value and every value is used. */
function checkSql(sql: Sql) {
  expect(sql.text).not.toContain(MARK);
  const used = new Set([...sql.text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
  for (const n of used) expect(n).toBeLessThanOrEqual(sql.values.length);
  for (let i = 1; i <= sql.values.length; i++) expect(used.has(i)).toBe(true);
}

function attempt(raw: unknown) {
  try {
    const plan = planQuery(schema, 'revisions', parseQuery(raw, { limitMax: 1000 }), {
      user: `u${MARK}`,
      role: null,
      rowFilter: (t, alias, p) => `${alias}."collection" = ANY(${p.add([MARK], 'text[]')})`,
      project: ({ def, expr, params }) => (def.type === 'json' ? `vellum_pick(${expr}, ${params.add(MARK, 'jsonb')})` : expr),
    });
    checkSql(plan.list());
    checkSql(plan.count('total'));
    checkSql(plan.count('filter'));
    if (plan.kind === 'list') checkSql(plan.one('12'));
  } catch (e) {
    if (!isAppError(e)) throw e;
    expect([400, 403]).toContain(e.status);
    expect(['INVALID_QUERY', 'FORBIDDEN']).toContain(e.code);
  }
}

describe('query language under hostile input', () => {
  it('answers 400/403 or plans SQL whose text carries no input', () => {
    fc.assert(fc.property(rawQuery, attempt), { numRuns: 3000 });
  });
  it('plans well-formed queries with hostile values (values only in params)', () => {
    const strOp = fc.constantFrom('_eq', '_neq', '_contains', '_ncontains', '_icontains', '_starts_with', '_iends_with', '_in', '_nin');
    const text = hostile.filter((s) => !s.includes('\u0000') && s.trim() !== '' && !['true', 'false', 'null'].includes(s));
    const q = fc.record({
      filter: fc.array(fc.tuple(fc.constantFrom('collection', 'item', 'version'), strOp, text), { minLength: 1, maxLength: 4 }).map((cs) => ({
        _or: cs.map(([f, o, v]) => (f === 'version' ? { activity: { action: { [o]: v } } } : { [f]: { [o]: v } })),
      })),
      search: text,
      sort: fc.constantFrom('-id', 'activity.timestamp', 'item,-collection'),
      fields: fc.constantFrom('*', 'id,activity.*', '*.*'),
    });
    let planned = 0;
    fc.assert(
      fc.property(q, (raw) => {
        const plan = planQuery(schema, 'revisions', parseQuery(raw), { user: null });
        checkSql(plan.list());
        checkSql(plan.count('filter'));
        planned++;
      }),
      { numRuns: 1000 },
    );
    expect(planned).toBe(1000);
  });
  it('survives arbitrary JSON values in every parameter', () => {
    const anyParams = fc.dictionary(
      fc.constantFrom('fields', 'sort', 'filter', 'search', 'limit', 'offset', 'page', 'meta', 'aggregate', 'groupBy', 'after', 'x'),
      fc.anything({ maxDepth: 4 }),
    );
    fc.assert(fc.property(anyParams, attempt), { numRuns: 2000 });
  });
});
