import request from 'supertest';
import type { Harness } from './helpers';
import { ADMIN_AUTH as admin, EDITOR_AUTH as editor, seededHarness } from './seed';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies in assertions
type Row = Record<string, any>;
let h: Harness;

beforeAll(async () => void (h = await seededHarness()));
afterAll(() => h.close());

const gql = async (query: string, variables: Record<string, unknown> = {}, auth: string | null = admin) => {
  const r = request(h.app.listener).post('/graphql').send({ query, variables });
  return auth ? r.set('Authorization', auth) : r;
};
const rest = async (q: string, auth: string | null = admin) => {
  const r = request(h.app.listener).get(`/revisions?${q}`);
  return (await (auth ? r.set('Authorization', auth) : r)).body;
};
/** REST ids are integers; GraphQL ID is a string. */
const norm = (v: unknown): unknown =>
  JSON.parse(JSON.stringify(v), (k, x) => ((k === 'id' || k === 'parent' || k === 'activity') && typeof x === 'number' ? String(x) : x));

describe('GraphQL subgraph — parity with REST', () => {
  const LIST = `query($filter: vellum_revisions_filter, $sort: [String], $limit: Int, $offset: Int, $page: Int, $search: String) {
    revisions(filter: $filter, sort: $sort, limit: $limit, offset: $offset, page: $page, search: $search) {
      id collection item data delta version activity { id action timestamp user { id } } parent { id collection }
    }
  }`;
  const cases: [string, Record<string, unknown>, string][] = [
    ['everything', {}, ''],
    ['filter + sort', { filter: { collection: { _in: ['articles', 'notes'] } }, sort: ['-id'] }, 'filter[collection][_in]=articles,notes&sort=-id'],
    [
      'relational',
      { filter: { activity: { timestamp: { _gte: '$NOW(-7 days)' } } }, sort: ['-activity.timestamp'] },
      'filter[activity][timestamp][_gte]=$NOW(-7 days)&sort=-activity.timestamp',
    ],
    [
      'number ops',
      { filter: { _or: [{ id: { _between: [2, 3] } }, { parent: { id: { _eq: 4 } } }] } },
      `filter=${encodeURIComponent('{"_or":[{"id":{"_between":[2,3]}},{"parent":{"id":{"_eq":4}}}]}')}`,
    ],
    ['paging', { limit: 2, page: 2 }, 'limit=2&page=2'],
    ['search', { search: 'note' }, 'search=note'],
  ];
  it.each(cases)('revisions: %s', async (_name, vars, q) => {
    const g = await gql(LIST, vars);
    expect(g.body.errors).toBeUndefined();
    const r = await rest(
      `${q}&fields=id,collection,item,data,delta,version,activity.id,activity.action,activity.timestamp,activity.user,parent.id,parent.collection`,
    );
    const expected = (r.data as Row[]).map((x) => ({ ...x, activity: { ...x.activity, user: x.activity.user ? { id: x.activity.user } : null } }));
    expect(norm(g.body.data.revisions)).toEqual(norm(expected));
    expect(g.body.data.revisions.length).toBeGreaterThan(0);
  });

  it('applies the same permissions (restricted role, public role)', async () => {
    const q = '{ revisions { id collection data delta } }';
    const g = await gql(q, {}, editor);
    expect(norm(g.body.data.revisions)).toEqual(norm((await rest('fields=id,collection,data,delta', editor)).data));
    expect(g.body.data.revisions.map((x: { collection: string }) => x.collection)).not.toContain('hidden');
    const p = await gql(q, {}, null);
    expect(norm(p.body.data.revisions)).toEqual(norm((await rest('fields=id,collection,data,delta', null)).data));
  });

  it('revisions_by_id, and 403 outside', async () => {
    const g = await gql('query($id: ID!) { revisions_by_id(id: $id) { id delta activity { action } } }', { id: '2' }, editor);
    expect(g.body.data.revisions_by_id).toEqual({ id: '2', delta: { title: 'Hello 2' }, activity: { action: 'update' } });
    const hidden = await gql('{ revisions_by_id(id: "4") { id } }', {}, editor);
    expect(hidden.body.data.revisions_by_id).toBeNull();
    expect(hidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('revisions_aggregated matches REST aggregate', async () => {
    const g = await gql(
      '{ revisions_aggregated(groupBy: ["collection"]) { group countAll count { item } countDistinct { item } max { id } sum { id } } }',
      {},
      editor,
    );
    expect(g.body.errors).toBeUndefined();
    const r = await rest('groupBy=collection&aggregate[count]=*,item&aggregate[countDistinct]=item&aggregate[max]=id&aggregate[sum]=id', editor);
    expect(g.body.data.revisions_aggregated).toEqual(
      r.data.map((x: Row) => ({
        group: { collection: x.collection },
        countAll: x.count['*'],
        count: { item: x.count.item },
        countDistinct: x.countDistinct,
        max: x.max,
        sum: x.sum,
      })),
    );
    expect(g.body.data.revisions_aggregated).toHaveLength(2);
  });

  it('answers query errors with the catalogue codes', async () => {
    const bad = await gql('{ revisions(filter: { data: { _null: true } }, sort: ["nope"]) { id } }');
    expect(bad.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const badOp = await gql('{ revisions(filter: { item: { _eq: "" } }) { id } }');
    expect(badOp.body.errors[0].extensions.code).toBe('INVALID_QUERY');
    const syntax = await gql('{ revisions { nope } }');
    expect(syntax.status).toBe(400);
    expect(syntax.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION');
  });

  it('exposes a federation 2 subgraph SDL referencing vellum_users', async () => {
    const r = await gql('{ _service { sdl } }');
    expect(r.body.data._service.sdl).toMatch(/type vellum_users\s+@key\(fields: "id", resolvable: false\)/);
    expect(r.body.data._service.sdl).toContain('@link(url: "https://specs.apollo.dev/federation/v2.3"');
  });
});
