import { listSql, oneSql } from './build-sql';
import { planContext } from './plan-context';
import { planFields } from './plan-fields';
import type { PlanOptions } from './plan-options';
import { planSort } from './plan-sort';
import { parseQuery } from './parse-query';
import { schema } from '../test/fixtures';
import { errorCode } from '../test/error-code';

const code = errorCode;
const list = (raw: Record<string, unknown>, opts: PlanOptions = {}) => {
  const c = planContext(schema, 'revisions', parseQuery({ fields: 'id,activity.user', ...raw }), opts);
  return listSql(c, planFields(c, c.query.fields), planSort(c));
};
const COLS = 'SELECT r."id" AS "c0", j1."id" AS "c1", j1."user" AS "c2", r."id" AS "_k" FROM "revisions" AS r';
const JOIN = ' LEFT JOIN "activity" AS j1 ON j1."id" = r."activity"';

describe('listSql', () => {
  it('reads a shallow page with LIMIT/OFFSET written in, the params in text order', () => {
    expect(list({ filter: { item: { _eq: 'a' } }, sort: '-activity.user', limit: '5', offset: '10' })).toEqual({
      text: `${COLS}${JOIN} WHERE r."item" = $1::text ORDER BY j1."user" DESC, r."id" ASC LIMIT 5 OFFSET 10`,
      values: ['a'],
    });
  });
  it('reads a deep page as a deferred join, from the nearer end when the total is known', () => {
    expect(list({ offset: '2000', limit: '5' }).text).toBe(
      `${COLS.replace(' FROM "revisions" AS r', ' FROM "revisions" AS r JOIN (SELECT r."id" AS "_d" FROM "revisions" AS r')}${JOIN} ORDER BY r."id" ASC LIMIT 5 OFFSET 2000) AS d ON d."_d" = r."id"${JOIN} ORDER BY r."id" ASC`,
    );
    const rev = list({ offset: '2000', limit: '5' }, { totalHint: 2100 });
    expect(rev.text).toContain('ORDER BY r."id" DESC LIMIT 5 OFFSET 95) AS d ON d."_d" = r."id"');
    expect(rev.text.endsWith(' ORDER BY r."id" ASC')).toBe(true);
    expect(rev.values).toEqual([]);
  });
  it('starts a deep key-ordered page where seek says, in the same statement', () => {
    const s = list({ offset: '2000', limit: '5', sort: '-id' }, { seek: ({ params }) => `SELECT 1 AS "lo", ${params.add(3, 'int8')} AS "skip"` });
    expect(s.text).toMatch(/^WITH "seek" AS \(SELECT 1 AS "lo", \$1::int8 AS "skip"\) SELECT /);
    expect(s.text).toContain(' WHERE r."id" <= (SELECT "lo" FROM "seek") ORDER BY r."id" DESC LIMIT 5 OFFSET (SELECT "skip" FROM "seek")) AS d');
    expect(s.values).toEqual([3]);
  });
  it('merges the keys of each partition of the row filter for a key-ordered list without filter or search', () => {
    const partitions: PlanOptions['partitions'] = (t, alias, params) =>
      t.name === 'revisions' ? ['a', 'b'].map((c) => `${alias}."collection" = ${params.add(c, 'text')}`) : null;
    const branch = (p: number, limit: string, bound = '') =>
      `(SELECT r."id" AS "_d" FROM "revisions" AS r WHERE (r."collection" = $${p}::text)${bound} ORDER BY r."id" DESC LIMIT ${limit})`;
    expect(list({ sort: '-id', limit: '5', offset: '3' }, { partitions }).text).not.toContain(' AS u '); // shallow: plain
    const shallow = list({ sort: '-id', limit: '5', offset: '3' }, { partitions, deferredJoinOffset: 0 });
    expect(shallow.text).toContain(
      `JOIN (SELECT "_d" FROM (${branch(1, '8')} UNION ALL ${branch(2, '8')}) AS u ORDER BY "_d" DESC LIMIT 5 OFFSET 3) AS d ON d."_d" = r."id"${JOIN} ORDER BY r."id" DESC`,
    );
    expect(shallow.values).toEqual(['a', 'b']);
    const seek = list({ sort: '-id', limit: '5', offset: '2000' }, { partitions, seek: () => 'SELECT 7 AS "lo", 2 AS "skip"' });
    const bound = ' AND r."id" <= (SELECT "lo" FROM "seek")';
    const lim = '(5 + (SELECT "skip" FROM "seek"))';
    expect(seek.text).toMatch(/^WITH "seek" AS \(SELECT 7 AS "lo", 2 AS "skip"\) SELECT /);
    expect(seek.text).toContain(
      `(${branch(1, lim, bound)} UNION ALL ${branch(2, lim, bound)}) AS u ORDER BY "_d" DESC LIMIT 5 OFFSET (SELECT "skip" FROM "seek")`,
    );
    // not with a filter, a search, another order or no limit
    for (const raw of [{ sort: '-id', filter: { item: { _eq: 'x' } } }, { sort: '-id', search: 'x' }, { sort: 'item' }, { sort: '-id', limit: '-1' }])
      expect(list(raw, { partitions, deferredJoinOffset: 0 }).text).not.toContain(' AS u ');
  });
  it('pages after a cursor', () => {
    const after = Buffer.from(JSON.stringify({ k: '9', d: 0 })).toString('base64url');
    expect(list({ after, limit: '2' })).toEqual({ text: `${COLS}${JOIN} WHERE r."id" > $1::int8 ORDER BY r."id" ASC LIMIT 2`, values: ['9'] });
  });
});

describe('oneSql', () => {
  it('reads one row by typed key with the row filter; 403 for an id that cannot be a key', () => {
    const c = planContext(schema, 'revisions', parseQuery({ fields: 'id' }), { rowFilter: (_t, alias, p) => `${alias}."item" = ${p.add('i')}` });
    const tree = planFields(c, c.query.fields);
    expect(oneSql(c, tree, 7)).toEqual({
      text: 'SELECT r."id" AS "c0" FROM "revisions" AS r WHERE r."id" = $2::int8 AND (r."item" = $1) LIMIT 1',
      values: ['i', '7'],
    });
    expect(code(() => oneSql(c, tree, 'x'))).toBe('FORBIDDEN');
  });
});

describe('rootSource', () => {
  const rootSource: PlanOptions['rootSource'] = (p) => `SELECT * FROM "revisions" WHERE "item" <> ${p.add('draft')}`;
  const FROM = '(SELECT * FROM "revisions" WHERE "item" <> $1) AS r';
  it('reads the root from the source in every statement, its values added once per statement', () => {
    const one = list({ limit: '2' }, { rootSource });
    expect(one.text).toBe(`${COLS.replace('"revisions" AS r', FROM)}${JOIN} ORDER BY r."id" ASC LIMIT 2`);
    expect(one.values).toEqual(['draft']);
    // a deep page: the deferred join reads the source twice, with the same placeholder
    const deep = list({ limit: '2', offset: '5' }, { rootSource, deferredJoinOffset: 0 });
    expect(deep.text.split(FROM)).toHaveLength(3);
    expect(deep.values.filter((v) => v === 'draft')).toHaveLength(1);
    const c = planContext(schema, 'revisions', parseQuery({ fields: 'id' }), { rootSource });
    expect(oneSql(c, planFields(c, c.query.fields), 7)).toEqual({
      text: `SELECT r."id" AS "c0" FROM ${FROM.replace('$1', '$2')} WHERE r."id" = $1::int8 LIMIT 1`,
      values: ['7', 'draft'],
    });
  });
});
