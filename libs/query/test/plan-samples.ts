// Seeded samples of the query space for the characterisation cases (plan-cases.ts): the same inputs on every run.
import fc from 'fast-check';

/** Seeded samples (deterministic inputs): well-formed queries combining every part, and wilder ones that mostly fail. */
export function sampledQueries(): unknown[] {
  const field = fc.constantFrom(
    'id',
    'activity',
    'collection',
    'item',
    'data',
    'parent',
    'version',
    'activity.timestamp',
    'activity.user',
    'parent.collection',
    'parent.parent.item',
    'parent.activity.action',
  );
  const fieldPath = fc.oneof(field, fc.constantFrom('activity.*', '*', '*.*', 'parent.*'));
  const leaf = fc.constantFrom(
    { id: { _gt: 5 } },
    { id: { _in: '1,2,3' } },
    { id: { _nbetween: [3, 9] } },
    { item: { _icontains: 'a%' } },
    { item: { _nempty: true } },
    { collection: { _eq: '$CURRENT_USER' } },
    { collection: { _neq: null } },
    { version: { _null: true } },
    { data: { _nnull: true } },
    { activity: { timestamp: { _gte: '$NOW(-1 day)' } } },
    { activity: { user: { _eq: '$CURRENT_ROLE' }, action: { _in: ['a', 'b'] } } },
    { parent: { item: { _ends_with: 'z' } } },
    { parent: { parent: { collection: { _starts_with: 'c' } } } },
    { parent: { _null: false } },
  );
  const { filter } = fc.letrec((tie) => ({
    filter: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.record({ _and: fc.array(tie('filter'), { maxLength: 3 }) }),
      fc.record({ _or: fc.array(tie('filter'), { maxLength: 3 }) }),
    ),
  }));
  const list = (arb: fc.Arbitrary<string>) => fc.uniqueArray(arb, { minLength: 1, maxLength: 3 }).map((a) => a.join(','));
  const wellFormed = fc.record(
    {
      fields: list(fieldPath),
      sort: fc.oneof(
        list(
          fc.oneof(
            field,
            field.map((n) => `-${n}`),
          ),
        ),
        fc.constant('?'),
      ),
      filter,
      search: fc.constantFrom('42', 'abc', '1.5'),
      limit: fc.constantFrom('-1', '0', '25', '3'),
      offset: fc.constantFrom('0', '20', '150', '5000', '80000'),
      meta: fc.constantFrom('*', 'filter_count'),
    },
    { requiredKeys: [] },
  );
  const grouped = fc.record(
    {
      aggregate: fc.constantFrom(
        { count: '*' },
        { count: 'id,item', max: 'activity.timestamp' },
        { countDistinct: 'collection', sum: 'id' },
        { min: 'item', avg: 'parent.id' },
      ),
      groupBy: fc.oneof(list(field), fc.constant('')),
      filter,
      search: fc.constantFrom('42', 'abc'),
      limit: fc.constantFrom('-1', '10'),
      offset: fc.constantFrom('0', '30'),
    },
    { requiredKeys: ['aggregate'] },
  );
  const name = fc.oneof(fieldPath, fc.constantFrom('x', '__proto__'));
  const op = fc.constantFrom('_eq', '_neq', '_lt', '_in', '_between', '_null', '_contains', '_empty', '_and', '_or', '_x');
  const scalar = fc.oneof(
    fc.constantFrom('$NOW', '$NOW(-7 days)', 'true', 'null', '', '1,2', '2026-01-01', 'a', '12'),
    fc.integer({ min: -5, max: 50 }),
    fc.boolean(),
  );
  const wild = fc.record(
    {
      fields: list(name),
      sort: list(
        fc.oneof(
          name,
          name.map((n) => `-${n}`),
        ),
      ),
      filter: fc.dictionary(name, fc.oneof(fc.dictionary(op, fc.oneof(scalar, fc.array(scalar, { maxLength: 3 })), { maxKeys: 2 }), scalar), { maxKeys: 2 }),
      aggregate: fc.dictionary(fc.constantFrom('count', 'sum', 'min', 'countDistinct'), list(fc.oneof(name, fc.constant('*'))), { maxKeys: 2 }),
      groupBy: list(name),
    },
    { requiredKeys: [] },
  );
  return [
    ...fc.sample(wellFormed, { seed: 2126, numRuns: 300 }),
    ...fc.sample(grouped, { seed: 2127, numRuns: 60 }),
    ...fc.sample(wild, { seed: 2128, numRuns: 60 }),
  ];
}
