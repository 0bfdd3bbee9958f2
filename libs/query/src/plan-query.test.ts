import { parseQuery } from './parse-query';
import { planQuery, type PlanOptions } from './plan-query';
import { defineSchema } from './schema';
import { schema } from '../test/fixtures';
import { errorCode } from '../test/error-code';

const now = new Date('2026-03-10T12:00:00.000Z');
const plan = (raw: Record<string, unknown>, opts: PlanOptions = {}) =>
  planQuery(schema, 'revisions', parseQuery(raw), { now, user: 'u-1', role: 'r-1', ...opts });
const where = (raw: Record<string, unknown>) => plan(raw).count('filter');
const code = errorCode;

describe('planQuery', () => {
  it('plans the default list', () => {
    const sql = plan({}).list();
    expect(sql.text).toBe(
      'SELECT r."id" AS "c0", r."activity" AS "c1", r."collection" AS "c2", r."item" AS "c3", r."data" AS "c4", r."delta" AS "c5", r."parent" AS "c6", r."version" AS "c7", r."id" AS "_k" FROM "revisions" AS r ORDER BY r."id" ASC LIMIT 100',
    );
    expect(sql.values).toEqual([]); // row counts written in: a prepared statement keeps one plan (plan-paging.ts)
  });
  it('names its flat leaves (field, column alias, type) in the order shape gives them; none for a tree with relations or reducers', () => {
    expect(plan({ fields: 'item,id,collection' }).flatLeaves).toEqual([
      { field: 'item', alias: 'c0', type: 'string' },
      { field: 'id', alias: 'c1', type: 'bigInteger' },
      { field: 'collection', alias: 'c2', type: 'string' },
    ]);
    expect(plan({ fields: 'id,activity.action' }).flatLeaves).toBeUndefined();
    expect(plan({ fields: 'id,data' }, { reduce: ({ field }) => (field === 'data' ? { with: [], map: (v) => v } : undefined) }).flatLeaves).toBeUndefined();
  });
  it('expands relations and shapes nested rows', () => {
    const p = plan({ fields: 'id,activity.*,parent.id' });
    expect(p.list().text).toContain('LEFT JOIN "activity" AS j1 ON j1."id" = r."activity"');
    expect(p.list().text).toContain('LEFT JOIN "revisions" AS j2 ON j2."id" = r."parent"');
    const rows = p.shape([
      {
        c0: '5',
        c1: '9',
        c2: '9',
        c3: 'update',
        c4: null,
        c5: new Date('2026-01-01T00:00:00Z'),
        c6: null,
        c7: null,
        c8: null,
        c9: null,
        c10: null,
        c11: null,
        c12: null,
        c13: null,
      },
    ]);
    expect(rows[0]).toEqual({
      id: 5,
      activity: {
        id: 9,
        action: 'update',
        user: null,
        timestamp: '2026-01-01T00:00:00.000Z',
        ip: null,
        user_agent: null,
        collection: null,
        item: null,
        origin: null,
        comment: null,
      },
      parent: null,
    });
  });
  it('puts values only in parameters', () => {
    const s = where({ filter: { collection: { _eq: "x'; DROP TABLE revisions; --" }, item: { _icontains: '50%_' } } });
    expect(s.text).toBe('SELECT count(*)::int8 AS n FROM "revisions" AS r WHERE (r."collection" = $1::text AND r."item" ILIKE $2::text)');
    expect(s.values).toEqual(["x'; DROP TABLE revisions; --", '%50\\%\\_%']);
  });
  it('compiles every operator family', () => {
    const t = (filter: unknown) => where({ filter });
    expect(t({ id: { _between: '1,5' } }).text).toContain('r."id" BETWEEN $1::int8 AND $2::int8');
    expect(t({ id: { _nin: [1, 2] } }).text).toContain('NOT (r."id" = ANY($1::int8[]))');
    expect(t({ id: { _gte: 3, _lt: 9 } }).text).toContain('(r."id" >= $1::int8 AND r."id" < $2::int8)');
    expect(t({ parent: { _null: 'true' } }).text).toContain('r."parent" IS NULL');
    expect(t({ parent: { _nnull: true } }).text).toContain('r."parent" IS NOT NULL');
    expect(t({ data: { _null: false } }).text).toContain('r."data" IS NOT NULL');
    expect(t({ version: { _eq: 'null' } }).text).toContain('r."version" IS NULL');
    expect(t({ item: { _empty: true } }).text).toContain(`(r."item" IS NULL OR r."item" = '')`);
    expect(t({ item: { _nstarts_with: 'a' } }).values).toEqual(['a%']);
    expect(t({ item: { _iends_with: 'a' } }).text).toContain('ILIKE');
    expect(t({ _or: [{ id: { _eq: 1 } }, { _and: [{ item: { _eq: 'a' } }, { collection: { _neq: 'b' } }] }] }).text).toContain(
      '(r."id" = $1::int8 OR (r."item" = $2::text AND r."collection" <> $3::text))',
    );
  });
  it('resolves dynamic values', () => {
    const s = where({ filter: { activity: { timestamp: { _gt: '$NOW(-7 days)' }, user: { _eq: '$CURRENT_USER' } } } });
    expect(s.text).toContain('LEFT JOIN "activity" AS j1');
    expect(s.values).toEqual(['2026-03-03T12:00:00.000Z', 'u-1']);
    expect(where({ filter: { activity: { timestamp: { _lte: '$NOW' } } } }).values).toEqual(['2026-03-10T12:00:00.000Z']);
    expect(where({ filter: { activity: { timestamp: { _lte: '$NOW(+1 month)' } } } }).values).toEqual(['2026-04-10T12:00:00.000Z']);
    expect(where({ filter: { version: { _eq: '$CURRENT_ROLE' } } }).values).toEqual(['r-1']);
    expect(code(() => where({ filter: { id: { _lt: '$NOW(-7 fortnights)' } } }))).toBe('INVALID_QUERY');
  });
  it('answers 400 for bad operators and values, 403 for unknown fields', () => {
    expect(code(() => where({ filter: { data: { _eq: 'x' } } }))).toBe('INVALID_QUERY');
    expect(code(() => where({ filter: { id: { _contains: '1' } } }))).toBe('INVALID_QUERY');
    expect(code(() => where({ filter: { id: { _eq: 'abc' } } }))).toBe('INVALID_QUERY');
    expect(code(() => where({ filter: { item: { _eq: '' } } }))).toBe('INVALID_QUERY');
    expect(code(() => where({ filter: { id: { _in: [] } } }))).toBe('INVALID_QUERY');
    expect(code(() => where({ filter: { id: { _between: [1] } } }))).toBe('INVALID_QUERY');
    expect(code(() => where({ filter: { id: { _between: [1, 2, 3] } } }))).toBe('INVALID_QUERY');
    expect(code(() => where({ filter: { id: { _bogus: 1 } } }))).toBe('INVALID_QUERY');
    expect(code(() => where({ filter: { id: 1 } }))).toBe('INVALID_QUERY');
    expect(code(() => where({ filter: { nope: { _eq: 1 } } }))).toBe('FORBIDDEN');
    expect(code(() => where({ filter: { activity: { nope: { _eq: 1 } } } }))).toBe('FORBIDDEN');
    expect(code(() => plan({ fields: 'nope' }))).toBe('FORBIDDEN');
    expect(code(() => plan({ fields: 'item.x' }))).toBe('FORBIDDEN');
    expect(code(() => plan({ sort: 'constructor' }))).toBe('FORBIDDEN');
    expect(code(() => plan({ sort: 'activity.nope' }))).toBe('FORBIDDEN');
  });
  it('searches strings and numbers', () => {
    expect(where({ search: 'Art' }).text).toContain('(r."collection" ILIKE $1::text OR r."item" ILIKE $2::text)');
    expect(where({ search: '42' }).text).toContain('r."id" = $1::int8');
  });
  it('sorts by several keys, relations and at random', () => {
    expect(plan({ sort: '-activity.timestamp,item' }).list().text).toContain('ORDER BY j1."timestamp" DESC, r."item" ASC, r."id" ASC');
    expect(plan({ sort: '?' }).list().text).toContain('ORDER BY random()');
  });
  it('uses a deferred join for deep offsets and a keyset cursor', () => {
    const deep = plan({ offset: '900000', limit: '25', sort: '-id' }).list().text;
    expect(deep).toContain('JOIN (SELECT r."id" AS "_d" FROM "revisions" AS r ORDER BY r."id" DESC LIMIT 25 OFFSET 900000) AS d');
    const rev = plan({ offset: '900000', limit: '25' }, { totalHint: 1_000_000 }).list();
    expect(rev.text).toContain(
      '(SELECT r."id" AS "_d" FROM "revisions" AS r ORDER BY r."id" DESC LIMIT 25 OFFSET 99975) AS d ON d."_d" = r."id" ORDER BY r."id" ASC',
    );
    expect(rev.values).toEqual([]);
    expect(plan({ offset: '999990', limit: '25' }, { totalHint: 1_000_000 }).list().text).toContain('ORDER BY r."id" DESC LIMIT 10) AS d');
    expect(plan({ offset: '2000000', limit: '25' }, { totalHint: 1_000_000 }).list().text).toContain('ORDER BY r."id" DESC LIMIT 0) AS d');
    const p = plan({ limit: '2', sort: '-id' });
    const cursor = p.nextCursor([{ _k: '10' }, { _k: '9' }]);
    expect(cursor).toBeTruthy();
    const next = plan({ limit: '2', sort: '-id', after: cursor });
    expect(next.list().text).toContain('WHERE r."id" < $1::int8');
    expect(next.list().values[0]).toBe('9');
    expect(code(() => plan({ sort: 'item', after: cursor }))).toBe('INVALID_QUERY');
    expect(code(() => plan({ sort: 'id', after: cursor }))).toBe('INVALID_QUERY');
  });
  it('starts a deep page ordered by the key where `seek` says, in the same statement', () => {
    const calls: { desc: boolean; offset: number }[] = [];
    const seek: PlanOptions['seek'] = ({ desc, offset, params }) => {
      calls.push({ desc, offset });
      return `SELECT 4096 AS "lo", ${params.add(offset, 'int8')} AS "skip"`;
    };
    const asc = plan({ offset: '900000', limit: '25', filter: { collection: { _eq: 'a' } } }, { seek, totalHint: 1_000_000 }).list();
    expect(asc.text).toBe(
      'WITH "seek" AS (SELECT 4096 AS "lo", $2::int8 AS "skip") SELECT r."id" AS "c0", r."activity" AS "c1", r."collection" AS "c2", r."item" AS "c3", r."data" AS "c4", r."delta" AS "c5", r."parent" AS "c6", r."version" AS "c7", r."id" AS "_k" FROM "revisions" AS r ' +
        'JOIN (SELECT r."id" AS "_d" FROM "revisions" AS r WHERE r."collection" = $1::text AND r."id" >= (SELECT "lo" FROM "seek") ORDER BY r."id" ASC LIMIT 25 OFFSET (SELECT "skip" FROM "seek")) AS d ON d."_d" = r."id" ORDER BY r."id" ASC',
    );
    expect(asc.values).toEqual(['a', 900000]);
    const desc = plan({ offset: '5000', limit: '-1', sort: '-id' }, { seek }).list();
    expect(desc.text).toContain('WHERE r."id" <= (SELECT "lo" FROM "seek") ORDER BY r."id" DESC OFFSET (SELECT "skip" FROM "seek"))');
    expect(calls.at(-1)).toEqual({ desc: true, offset: 5000 });
    // not for other orders, shallow pages, random order or a cursor; null from seek = the plain plan
    const n = calls.length;
    expect(plan({ offset: '5000', sort: 'item' }, { seek }).list().text).not.toContain('seek');
    expect(plan({ offset: '10' }, { seek }).list().text).not.toContain('seek');
    expect(plan({ offset: '5000', sort: '?' }, { seek }).list().text).not.toContain('seek');
    expect(calls.length).toBe(n);
    expect(plan({ offset: '5000' }, { seek: () => null }).list().text).toContain('LIMIT 100 OFFSET 5000');
  });
  it('reduces selected values in Node with the fields they need (root and relations, lists and one)', () => {
    const seen: string[] = [];
    const p = plan(
      { fields: 'id,data,parent.data' },
      {
        reduce: ({ table, field, depth }) => {
          seen.push(`${table.name}.${field}@${depth}`);
          return field === 'data' ? { with: ['collection'], map: (v, c) => ({ v, c }) } : undefined;
        },
        project: ({ expr }) => `never(${expr})`,
      },
    );
    expect(seen).toEqual(['revisions.id@0', 'revisions.data@0', 'revisions.data@1']);
    const s = p.list().text;
    expect(s).toContain('r."data" AS "c1", r."collection" AS "c2"');
    expect(s).toContain('j1."id" AS "c3", j1."data" AS "c4", j1."collection" AS "c5"');
    expect(s).not.toContain('never(r."data")');
    expect(p.one('1').text).toContain('r."collection" AS "c2"');
    const row = Object.fromEntries(['c0', 'c1', 'c2', 'c3', 'c4', 'c5'].map((c) => [c, c]));
    expect(p.shape([row])).toEqual([{ id: 'c0', data: { v: 'c1', c: 'c2' }, parent: { data: { v: 'c4', c: 'c5' } } }]);
    expect(() => plan({ fields: 'data' }, { reduce: () => ({ with: ['nope'], map: (v) => v }) })).toThrow(/unknown field/);
  });
  it('applies row filters and projections', () => {
    const p = plan(
      { fields: 'id,data,parent.data' },
      {
        rowFilter: (t, alias, params) => (t.name === 'revisions' ? `${alias}."collection" = ANY(${params.add(['a'], 'text[]')})` : null),
        project: ({ def, expr, params }) => (def.type === 'json' ? `pick(${expr}, ${params.add('{}', 'jsonb')})` : expr),
      },
    );
    const s = p.list();
    expect(s.text).toMatch(/LEFT JOIN "revisions" AS j1 ON j1."id" = r."parent" AND \(j1."collection" = ANY\(\$\d::text\[\]\)\)/);
    expect(s.text).toContain('pick(r."data", $1::jsonb)');
    // groups and sorts see the projected value too
    const opts = { project: ({ def, expr }: { def: { type: string }; expr: string }) => (def.type === 'json' ? `pick(${expr})` : expr) };
    expect(plan({ aggregate: { count: '*' }, groupBy: 'data,parent.delta' }, opts).list().text).toContain(
      'SELECT pick(r."data") AS "g0", pick(j1."delta") AS "g1"',
    );
    expect(plan({ sort: '-data' }, opts).list().text).toContain('ORDER BY pick(r."data") DESC, r."id" ASC');
    expect(s.text).toContain('WHERE (r."collection" = ANY(');
    expect(p.one('7').text).toContain('WHERE r."id" = ');
    expect(code(() => p.one('x'))).toBe('FORBIDDEN');
  });
  it('plans aggregates with groupBy', () => {
    const p = plan({ aggregate: { count: '*', max: 'id', countDistinct: 'item' }, groupBy: 'collection', sort: '-collection' });
    expect(p.kind).toBe('aggregate');
    expect(p.list().text).toBe(
      'SELECT r."collection" AS "g0", count(*)::int8 AS "a0", max(r."id") AS "a1", count(DISTINCT r."item")::int8 AS "a2" FROM "revisions" AS r GROUP BY 1 ORDER BY r."collection" DESC LIMIT 100',
    );
    expect(p.shape([{ g0: 'a', a0: '3', a1: '9', a2: '2' }])).toEqual([{ collection: 'a', count: 3, max: { id: 9 }, countDistinct: { item: 2 } }]);
    expect(code(() => plan({ aggregate: { sum: 'item' } }))).toBe('INVALID_QUERY');
    expect(code(() => plan({ aggregate: { avg: '*' } }))).toBe('INVALID_QUERY');
    expect(code(() => plan({ aggregate: { count: 'nope' } }))).toBe('FORBIDDEN');
    expect(code(() => plan({ aggregate: { count: '*' }, groupBy: 'collection', sort: 'item' }))).toBe('INVALID_QUERY');
  });
  it('shows a concealed field only as set/unset under "*" and refuses it by name everywhere', () => {
    const secrets = defineSchema({
      users: {
        name: 'users',
        table: 'users',
        primaryKey: 'id',
        fields: { id: { type: 'integer' }, email: { type: 'string' }, password: { type: 'string', concealed: true } },
      },
    });
    const p = (raw: Record<string, unknown>) => planQuery(secrets, 'users', parseQuery(raw));
    const list = p({ search: 'x' }).list();
    expect(list.text).toContain(`CASE WHEN r."password" IS NULL THEN NULL ELSE '**********' END AS "c2"`);
    expect(list.text).not.toMatch(/r."password" ILIKE/);
    expect(
      p({}).shape([
        { c0: 1, c1: 'a@x.io', c2: '**********' },
        { c0: 2, c1: 'b@x.io', c2: null },
      ]),
    ).toEqual([
      { id: 1, email: 'a@x.io', password: '**********' },
      { id: 2, email: 'b@x.io', password: null },
    ]);
    for (const raw of [
      { fields: 'password' },
      { fields: 'id,password' },
      { filter: { password: { _starts_with: '$argon2' } } },
      { filter: { _or: [{ id: { _eq: 1 } }, { password: { _null: true } }] } },
      { sort: 'password' },
      { groupBy: 'password', aggregate: { count: '*' } },
      { aggregate: { countDistinct: 'password' } },
      { aggregate: { min: 'password' } },
    ])
      expect(code(() => p(raw))).toBe('FORBIDDEN');
  });
});
