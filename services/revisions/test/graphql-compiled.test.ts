import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { fastRouteOf, serviceListener } from '@vellum/http';
import type { Harness } from './helpers';
import { ADMIN_AUTH as admin, EDITOR_AUTH as editor, seededHarness } from './seed';

// The subgraph's compiled path (@vellum/subgraph compiled-operations.ts) over the real service: the same operation
// answered by it and by Apollo Server (an Accept of application/graphql-response+json always goes to Apollo) gives
// the same JSON, for every role.

let h: Harness;

beforeAll(async () => void (h = await seededHarness()));
afterAll(() => h.close());

async function both(query: string, variables: Record<string, unknown>, auth: string | null) {
  const send = (accept: string) => {
    const r = request(h.app.listener).post('/graphql').set('Accept', accept).send({ query, variables });
    return auth ? r.set('Authorization', auth) : r;
  };
  const before = { ...h.app.graphqlCounts };
  const compiled = await send('application/json');
  const counts = h.app.graphqlCounts;
  const path = counts.text > before.text ? 'text' : counts.compiled > before.compiled ? 'compiled' : 'apollo';
  const apollo = await send('application/graphql-response+json');
  expect(h.app.graphqlCounts.apollo).toBeGreaterThan(before.apollo);
  expect([compiled.status, JSON.parse(compiled.text)]).toEqual([apollo.status, JSON.parse(apollo.text)]);
  expect(compiled.headers['cache-control']).toBe('no-store');
  return { path, body: JSON.parse(compiled.text) };
}

describe('GraphQL compiled path of the revisions subgraph', () => {
  const LIST = '{ revisions(limit: 25, sort: ["-id"]) { id collection item delta activity { action timestamp } } }';
  const SHAPES = `query Q($limit: Int, $sort: [String]) {
    list: revisions(limit: $limit, sort: $sort) { __typename key: id ...R parent { id collection activity { user { id } } } }
  }
  fragment R on vellum_revisions { data delta version activity { ... on vellum_activity { id action timestamp ip user_agent } } }`;

  it.each([
    ['admin', admin],
    ['restricted role', editor],
    ['public', null],
  ])('answers the list as Apollo Server does: %s', async (_who, auth) => {
    const list = await both(LIST, {}, auth);
    // written as text from the rows (revisions-layout.ts); the fragments and `user { id }` of SHAPES: objects
    expect(list.path).toBe('text');
    const shapes = await both(SHAPES, { limit: 5, sort: ['-id'] }, auth);
    expect(shapes.path).toBe('compiled');
    if (auth === admin) expect(list.body.data.revisions.map((r: { id: string }) => r.id)).toEqual(['7', '6', '5', '4', '3', '2', '1']);
    if (auth === editor) {
      // the role reads articles (id and title) and notes only
      expect([...new Set(list.body.data.revisions.map((r: { collection: string }) => r.collection))].sort()).toEqual(['articles', 'notes']);
    }
  });

  it.each([
    ['admin', admin],
    ['restricted role', editor],
    ['public', null],
  ])('writes as text what Apollo Server answers — aliases, __typename, relations, variables: %s', async (_who, auth) => {
    const query = `query Q($limit: Int, $sort: [String], $filter: vellum_revisions_filter) {
      list: revisions(limit: $limit, sort: $sort, filter: $filter) {
        __typename key: id data delta version item
        parent { __typename } up: parent { id collection }
        activity { id action timestamp ip user_agent collection item origin }
      }
    }`;
    for (const variables of [
      { limit: 5, sort: ['-id'] },
      { filter: { collection: { _eq: 'articles' } }, sort: ['id'] },
    ]) {
      const r = await both(query, variables, auth);
      expect(r.path).toBe('text');
      if (auth) expect(r.body.data.list.length).toBeGreaterThan(0);
    }
  });

  it('parses the list of a document without variables once (its arguments and fields kept, frozen)', async () => {
    const query = '{ revisions(limit: 2, sort: ["id"]) { id item } }';
    const parse = jest.spyOn(h.app.reader, 'parse');
    try {
      for (let i = 0; i < 3; i++) expect((await both(query, {}, admin)).path).toBe('text');
      const texts = parse.mock.calls.map(([raw]) => raw).filter((raw) => Object.isFrozen(raw));
      expect(texts).toHaveLength(3);
      expect(new Set(texts).size).toBe(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('leaves errors to Apollo Server: the same FORBIDDEN', async () => {
    const hidden = await both('{ revisions_by_id(id: "4") { id } }', {}, editor);
    expect(hidden.path).toBe('apollo');
    expect([hidden.body.data.revisions_by_id, hidden.body.errors[0].extensions.code]).toEqual([null, 'FORBIDDEN']);
  });
});

describe('POST /graphql in the service’s fast lane (bare node:http, as the service listens)', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer(serviceListener(h.app.app));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('is a fast route', () => {
    expect(fastRouteOf(h.app.app, 'POST', '/graphql')).toBeDefined();
  });

  it.each([
    ['the text path', '{ revisions(limit: 3, sort: ["-id"]) { id collection delta activity { action timestamp } } }', editor, 'text'],
    ['the compiled path', '{ revisions(limit: 3, sort: ["-id"]) { id ... on vellum_revisions { collection } } }', editor, 'compiled'],
    ['Apollo Server (an error)', '{ revisions_by_id(id: "4") { id } }', editor, 'apollo'],
    ['Apollo Server (a validation error)', '{ revisions { nope } }', admin, 'apollo'],
  ])('answers as express does: %s', async (_name, query, auth, path) => {
    const before = { ...h.app.graphqlCounts };
    const lane = await request(base).post('/graphql').set('Authorization', auth).send({ query });
    const took = path as 'text' | 'compiled' | 'apollo';
    expect(h.app.graphqlCounts[took]).toBe(before[took] + 1);
    const viaExpress = await request(h.app.app).post('/graphql').set('Authorization', auth).send({ query });
    expect([lane.status, lane.body, lane.headers['content-type'], lane.headers['cache-control']]).toEqual([
      viaExpress.status,
      viaExpress.body,
      viaExpress.headers['content-type'],
      viaExpress.headers['cache-control'],
    ]);
    expect(lane.headers['x-request-id']).toEqual(expect.any(String));
  });
});
