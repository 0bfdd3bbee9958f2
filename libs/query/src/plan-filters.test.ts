import { planContext } from './plan-context';
import { filterSql, searchSql, whereSql } from './plan-filters';
import type { PlanOptions } from './plan-options';
import { parseQuery } from './parse-query';
import { defineSchema } from './schema';
import { Statement } from './statement';
import { schema } from '../test/fixtures';
import { errorCode } from '../test/error-code';

const code = errorCode;
const stmt = (raw: Record<string, unknown> = {}, opts: PlanOptions = {}) => new Statement(planContext(schema, 'revisions', parseQuery(raw), opts));
const filter = (f: unknown, s = stmt()) => ({ sql: filterSql(s, f, schema.revisions!, 'r', '', 0), s });

describe('filterSql', () => {
  it('nests _and / _or, joins relations once, skips empty groups', () => {
    const { sql, s } = filter({
      _or: [{ id: { _eq: 1 } }, { _and: [{ activity: { user: { _eq: 'a' } } }, { parent: { activity: { user: { _eq: 'b' } } } }] }],
      _and: [],
    });
    expect(sql).toBe('(r."id" = $1::int8 OR (j1."user" = $2::text AND j3."user" = $3::text))');
    expect(s.joinText()).toContain('LEFT JOIN "activity" AS j3 ON j3."id" = j2."activity"');
    expect(filter({}).sql).toBe('TRUE');
    expect(filter({ parent: { _null: true } }).sql).toBe('r."parent" IS NULL'); // operators on a relation field: its key
  });
  it('refuses unknown and concealed names with 403, malformed trees with 400', () => {
    const users = defineSchema({
      u: { name: 'u', table: 'u', primaryKey: 'id', fields: { id: { type: 'integer' }, pw: { type: 'string', concealed: true } } },
    });
    const s = new Statement(planContext(users, 'u', parseQuery({}), {}));
    expect(code(() => filterSql(s, { pw: { _null: true } }, users.u!, 'r', '', 0))).toBe('FORBIDDEN');
    expect(code(() => filter({ nope: { _eq: 1 } }))).toBe('FORBIDDEN');
    expect(code(() => filter({ activity: { nope: { _eq: 1 } } }))).toBe('FORBIDDEN');
    expect(code(() => filter({ _xor: [] }))).toBe('INVALID_QUERY');
    expect(code(() => filter({ _and: {} }))).toBe('INVALID_QUERY');
    expect(code(() => filter({ id: 1 }))).toBe('INVALID_QUERY');
    expect(code(() => filter({ id: {} }))).toBe('INVALID_QUERY');
    expect(code(() => filter([]))).toBe('INVALID_QUERY');
    expect(code(() => filter({ parent: { parent: { parent: { parent: { id: { _eq: 1 } } } } } }))).toBe('INVALID_QUERY');
  });
  it('bounds the size and depth of a filter', () => {
    const deep = Array.from({ length: 13 }).reduce<unknown>((acc) => ({ _and: [acc] }), { id: { _eq: 1 } });
    expect(code(() => filter(deep))).toBe('INVALID_QUERY');
    expect(code(() => filter({ _or: Array.from({ length: 500 }, () => ({ id: { _eq: 1 } })) }))).toBe('INVALID_QUERY');
    expect(code(() => filter({ _or: Array.from({ length: 499 }, () => ({ id: { _eq: 1 } })) }))).toBe('ok');
  });
});

describe('searchSql', () => {
  it('matches text fields by ILIKE (escaped) and numeric fields when the term is a number', () => {
    const s = stmt();
    expect(searchSql(s, 'a%')).toBe('(r."collection" ILIKE $1::text OR r."item" ILIKE $2::text)');
    expect(s.params.values).toEqual(['%a\\%%', '%a\\%%']);
    expect(searchSql(stmt(), '42')).toBe(
      '(r."id" = $1::int8 OR r."activity" = $2::int8 OR r."collection" ILIKE $3::text OR r."item" ILIKE $4::text OR r."parent" = $5::int8)',
    );
    expect(code(() => searchSql(stmt(), 'a\u0000'))).toBe('INVALID_QUERY');
    const none = defineSchema({ t: { name: 't', table: 't', primaryKey: 'id', fields: { id: { type: 'uuid' } } } });
    expect(searchSql(new Statement(planContext(none, 't', parseQuery({}), {})), 'x')).toBe('FALSE');
  });
});

describe('whereSql', () => {
  it('puts the row filter first, then filter, search and the cursor; without filter only the row filter', () => {
    const opts: PlanOptions = { rowFilter: (t, alias, p) => `${alias}."collection" = ANY(${p.add(['a'], 'text[]')})` };
    const raw = { filter: { item: { _eq: 'x' } }, search: 'q' };
    const s = stmt(raw, opts);
    expect(whereSql(s, true, { after: '9', desc: true })).toBe(
      ' WHERE (r."collection" = ANY($1::text[])) AND r."item" = $2::text AND (r."collection" ILIKE $3::text OR r."item" ILIKE $4::text) AND r."id" < $5::int8',
    );
    expect(s.params.values).toEqual([['a'], 'x', '%q%', '%q%', '9']);
    expect(whereSql(stmt(raw, opts), false)).toBe(' WHERE (r."collection" = ANY($1::text[]))');
    expect(whereSql(stmt(raw), false)).toBe('');
    expect(whereSql(stmt({ filter: { _and: [] } }), true)).toBe('');
  });
});
