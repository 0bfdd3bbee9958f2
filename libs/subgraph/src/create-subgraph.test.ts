import express from 'express';
import request from 'supertest';
import { errors } from '@vellum/errors';
import { createSubgraph } from './index';

const SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  type Query { hello: String, denied: String }
  type vellum_users @key(fields: "id") { id: ID! }
`;

describe('createSubgraph', () => {
  const sub = createSubgraph(SDL, {
    Query: {
      hello: (_: unknown, __: unknown, { req }: { req: express.Request }) => `hi ${req.get('x-name')}`,
      denied: () => {
        throw errors.forbidden();
      },
    },
  });
  const app = express();
  app.use(express.json());
  app.post('/graphql', sub.middleware);
  afterAll(() => sub.server.stop());

  it('serves the schema with the express request in the context', async () => {
    const r = await request(app).post('/graphql').set('x-name', 'ann').send({ query: '{ hello }' });
    expect(r.body).toEqual({ data: { hello: 'hi ann' } });
  });

  it('answers errors with the catalogue code', async () => {
    const r = await request(app).post('/graphql').send({ query: '{ denied }' });
    expect(r.status).toBe(200);
    expect(r.body.errors[0].extensions).toEqual({ code: 'FORBIDDEN' });
    const bad = await request(app).post('/graphql').send({ query: '{ nope }' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION');
    const unnamed = await request(app).post('/graphql').send({ query: '{ hello }', operationName: 'nope' });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.errors).toEqual([{ message: 'Unknown operation named "nope".', extensions: { code: 'GRAPHQL_VALIDATION' } }]);
  });

  it('answers with Cache-Control: no-store, and leaves the resolvers unwrapped (no per-field plugin hook)', async () => {
    const r = await request(app).post('/graphql').send({ query: '{ hello }' });
    expect(r.headers['cache-control']).toBe('no-store');
    const denied = await request(app).post('/graphql').send({ query: '{ denied }' });
    expect(denied.headers['cache-control']).toBe('no-store');
    // Apollo wraps every field resolver once a plugin has willResolveField (its cache-control plugin does): a cost
    // per field of every operation. The schema it runs is marked when it did.
    type Internals = { internals: { state: { schemaManager: { getSchemaDerivedData(): { schema: object } } } } };
    const schema = (sub.server as unknown as Internals).internals.state.schemaManager.getSchemaDerivedData().schema;
    expect(Object.getOwnPropertySymbols(schema).map(String)).not.toContain('Symbol(apolloServerPluginsEnabled)');
  });

  it('is a federation subgraph', async () => {
    const r = await request(app).post('/graphql').send({ query: '{ _service { sdl } }' });
    expect(r.body.data._service.sdl).toMatch(/vellum_users/);
  });
});
