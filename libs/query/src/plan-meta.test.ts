import { planContext } from './plan-context';
import { countSql } from './plan-meta';
import { parseQuery } from './parse-query';
import { schema } from '../test/fixtures';

describe('countSql', () => {
  it('counts with the row filter only (total) or with the filter and search too (filter), joining what the filter needs', () => {
    const c = planContext(
      schema,
      'revisions',
      parseQuery({ filter: { activity: { user: { _eq: 'u' } } }, search: 'x', sort: '-item', limit: '5', offset: '7' }),
      {
        rowFilter: (t, alias, p) => (t.name === 'revisions' ? `${alias}."collection" = ${p.add('a', 'text')}` : null),
      },
    );
    expect(countSql(c, 'total')).toEqual({ text: 'SELECT count(*)::int8 AS n FROM "revisions" AS r WHERE (r."collection" = $1::text)', values: ['a'] });
    expect(countSql(c, 'filter')).toEqual({
      text:
        'SELECT count(*)::int8 AS n FROM "revisions" AS r LEFT JOIN "activity" AS j1 ON j1."id" = r."activity" ' +
        'WHERE (r."collection" = $1::text) AND j1."user" = $2::text AND (r."collection" ILIKE $3::text OR r."item" ILIKE $4::text)',
      values: ['a', 'u', '%x%', '%x%'],
    });
    expect(countSql(planContext(schema, 'revisions', parseQuery({}), {}), 'filter').text).toBe('SELECT count(*)::int8 AS n FROM "revisions" AS r');
  });
});
