import express from 'express';
import request from 'supertest';
import { Kind, type FieldNode } from 'graphql';
import { errors } from '@vellum/errors';
import { createSubgraph, type Subgraph, type TextField } from './index';

// A root field written as JSON text (text-fields.ts) against Apollo Server: the same requests, the same answers;
// what the TextField cannot write (or fails on) goes to the compiled path and Apollo Server as before.

const SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  input filter { name: String, _or: [filter] }
  type item { id: ID!, name: String, n: Int }
  type Query { items(limit: Int, filter: filter): [item!]!, hello: String }
`;
const ITEMS = [1, 2, 3].map((i) => ({ id: i, name: `item ${i}`, n: i * 10 }));
const resolvers = { Query: { items: (_: unknown, args: { limit?: number }) => ITEMS.slice(0, args.limit ?? 3), hello: () => 'hi' } };

/** The arguments each call got. */
const seen: object[] = [];

/** Writes `{ id name }` selections only; `limit: 0` fails (the other paths answer it). */
const items: TextField = async (args, _context, field) => {
  seen.push(args);
  const names = field.selectionSet!.selections.map((s) => (s.kind === Kind.FIELD ? (s as FieldNode).name.value : '?')).join();
  if (names !== 'id,name') return undefined;
  if (args.limit === 0) throw errors.forbidden();
  return JSON.stringify(ITEMS.slice(0, (args.limit as number | undefined) ?? 3).map((i) => ({ id: String(i.id), name: i.name })));
};

const appOf = (sub: Subgraph) => {
  const app = express();
  app.use(express.json());
  app.post('/graphql', sub.middleware);
  return app;
};
const text = createSubgraph(SDL, resolvers, { textFields: { items } });
const apollo = createSubgraph(SDL, resolvers, { compiled: false });
const [fast, full] = [appOf(text), appOf(apollo)];
afterAll(async () => {
  await text.server.stop();
  await apollo.server.stop();
});

/** The same body to both: the same status, type and bytes; returns the path the text subgraph took. */
async function same(body: object): Promise<{ path: string; text: string }> {
  const before = { ...text.counts };
  const a = await request(fast).post('/graphql').send(body);
  const b = await request(full).post('/graphql').send(body);
  expect({ status: a.status, type: a.headers['content-type'], cache: a.headers['cache-control'], text: a.text }).toEqual({
    status: b.status,
    type: b.headers['content-type'],
    cache: b.headers['cache-control'],
    text: b.text,
  });
  const path = (['text', 'compiled', 'apollo'] as const).find((k) => text.counts[k] > before[k])!;
  return { path, text: a.text };
}

describe('root fields written as JSON text', () => {
  it('answer an operation of that one field, under its alias, with arguments and variables', async () => {
    expect(await same({ query: '{ items(limit: 2) { id name } }' })).toEqual({
      path: 'text',
      text: '{"data":{"items":[{"id":"1","name":"item 1"},{"id":"2","name":"item 2"}]}}',
    });
    expect((await same({ query: '{ list: items { id name } }' })).path).toBe('text');
    expect((await same({ query: 'query($n: Int) { items(limit: $n) { id name } }', variables: { n: 1 } })).path).toBe('text');
    // an input-object variable (which graphql-jit cannot take): graphql-js coerces it here
    expect((await same({ query: 'query($f: filter) { items(filter: $f) { id name } }', variables: { f: { _or: [{ name: 'x' }] } } })).path).toBe('text');
  });

  it('give a document without variables the same frozen arguments every time', async () => {
    seen.length = 0;
    for (let i = 0; i < 2; i++) await same({ query: '{ items(limit: 1) { id name } }' });
    for (let i = 0; i < 2; i++) await same({ query: 'query($n: Int) { items(limit: $n) { id name } }', variables: { n: 1 } });
    expect(seen[0]).toBe(seen[1]);
    expect(Object.isFrozen(seen[0])).toBe(true);
    expect(seen[2]).not.toBe(seen[3]);
  });

  it('leave to the other paths what the field cannot write or fails on, and other operations', async () => {
    expect((await same({ query: '{ items { id n } }' })).path).toBe('compiled');
    expect((await same({ query: '{ items(limit: 0) { id name } }' })).path).toBe('compiled');
    expect((await same({ query: '{ items { id name } hello }' })).path).toBe('compiled');
    expect((await same({ query: '{ items @skip(if: false) { id name } }' })).path).toBe('compiled');
    const bad = await same({ query: 'query($n: Int) { items(limit: $n) { id name } }', variables: { n: 'many' } });
    expect(bad.path).toBe('apollo');
  });
});
