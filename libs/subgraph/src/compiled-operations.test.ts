import express from 'express';
import request from 'supertest';
import { errors } from '@vellum/errors';
import { rawJson } from '@vellum/http';
import { createSubgraph, type Subgraph } from './index';

// The compiled path against Apollo Server: one subgraph with it, one without, the same requests, the same answers.

const SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  scalar JSON
  input filter { name: String, _or: [filter] }
  type item { id: ID!, name: String, n: Int, data: JSON, parent: item, owner: vellum_users }
  type Query { items(limit: Int, filter: filter): [item!]!, denied: String, hello(name: String!): String }
  type Mutation { touch: String }
  type vellum_users @key(fields: "id", resolvable: false) { id: ID! }
`;
const ITEMS = [1, 2, 3].map((i) => ({
  id: i,
  name: `item ${i}`,
  n: i * 10,
  data: rawJson(`{"big": 12345678901234567890, "x": 1.50}`),
  parent: i > 1 ? { id: i - 1, name: `item ${i - 1}` } : null,
  owner: { id: `u-${i}` },
}));
const resolvers = {
  JSON: { __serialize: (v: unknown) => v },
  Query: {
    items: (_: unknown, args: { limit?: number }, { req }: { req: express.Request }) =>
      req.get('x-deny') ? Promise.reject(errors.forbidden()) : ITEMS.slice(0, args.limit ?? 3),
    denied: () => {
      throw errors.forbidden();
    },
    hello: (_: unknown, args: { name: string }) => `hi ${args.name}`,
  },
  Mutation: { touch: () => 'touched' },
};

const appOf = (sub: Subgraph) => {
  const app = express();
  app.use(express.json());
  app.post('/graphql', sub.middleware);
  return app;
};
const compiled = createSubgraph(SDL, resolvers);
const apollo = createSubgraph(SDL, resolvers, { compiled: false });
const [fast, full] = [appOf(compiled), appOf(apollo)];
afterAll(async () => {
  await compiled.server.stop();
  await apollo.server.stop();
});

/** The same body to both: the same status, headers that matter and bytes; returns the path the compiled one took. */
async function same(body: object, headers: Record<string, string> = {}): Promise<{ path: 'compiled' | 'apollo'; text: string }> {
  const before = { ...compiled.counts };
  const a = await request(fast).post('/graphql').set(headers).send(body);
  const b = await request(full).post('/graphql').set(headers).send(body);
  expect({ status: a.status, type: a.headers['content-type'], cache: a.headers['cache-control'], text: a.text }).toEqual({
    status: b.status,
    type: b.headers['content-type'],
    cache: b.headers['cache-control'],
    text: b.text,
  });
  const path = compiled.counts.compiled > before.compiled ? 'compiled' : 'apollo';
  expect(compiled.counts.compiled + compiled.counts.apollo).toBe(before.compiled + before.apollo + 1);
  return { path, text: a.text };
}

describe('compiled operations', () => {
  it('answer plain queries as Apollo Server does, the database’s JSON text spliced in as is', async () => {
    const r = await same({ query: '{ items { id name data } }' });
    expect(r.path).toBe('compiled');
    expect(r.text).toContain('"data":{"big": 12345678901234567890, "x": 1.50}');
  });

  it('keep aliases, fragments, scalar variables, __typename, directives, nesting and the chosen operation', async () => {
    const query = `
      query A($l: Int, $skip: Boolean!) { list: items(limit: $l) { ...F kind: __typename parent { id ... on item { name } } n @skip(if: $skip) owner { id } } }
      query B($name: String!) { __typename hello(name: $name) }
      fragment F on item { key: id }`;
    expect((await same({ query, variables: { l: 2, skip: false }, operationName: 'A' })).path).toBe('compiled');
    expect((await same({ query, variables: { l: 3, skip: true }, operationName: 'A' })).path).toBe('compiled');
    expect((await same({ query, variables: { name: 'ann' }, operationName: 'B' })).path).toBe('compiled');
    expect((await same({ query: '{ items(filter: { _or: [{ name: "a" }] }) { id } }' })).path).toBe('compiled');
  });

  it('leave to Apollo Server: errors, bad variables, input object variables, mutations, introspection, other media types', async () => {
    const denied = await same({ query: '{ denied }' });
    expect(denied.path).toBe('apollo');
    expect(JSON.parse(denied.text).errors[0].extensions).toEqual({ code: 'FORBIDDEN' });
    expect((await same({ query: '{ items { id } }' }, { 'x-deny': '1' })).path).toBe('apollo');
    expect((await same({ query: 'query($l: Int) { items(limit: $l) { id } }', variables: { l: 'many' } })).path).toBe('apollo');
    expect((await same({ query: 'query($l: Int!) { items(limit: $l) { id } }' })).path).toBe('apollo');
    // graphql-jit's coercion of a recursive input object variable never ends: not compiled
    expect((await same({ query: 'query($f: filter) { items(filter: $f) { id } }', variables: { f: { _or: [{ name: 'a' }] } } })).path).toBe('apollo');
    expect((await same({ query: 'mutation { touch }' })).path).toBe('apollo');
    expect((await same({ query: '{ __schema { queryType { name } } }' })).path).toBe('apollo');
    expect((await same({ query: '{ _service { sdl } }' })).path).toBe('apollo');
    expect((await same({ query: '{ items { nope } }' })).path).toBe('apollo');
    expect((await same({ query: '{ items { id } }' }, { accept: 'application/graphql-response+json' })).path).toBe('apollo');
    expect((await same({ query: '{ items { id } }', extensions: {} })).path).toBe('apollo');
  });
});
