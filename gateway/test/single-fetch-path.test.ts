import request from 'supertest';
import { composeSupergraph } from '../src/graphql/compose-supergraph';
import { testTokens } from '@vellum/testing';
import type { GatewayDeps } from '../src/app';
import { listenGateway, silentLogger, startUpstream, testConfig, type ListeningGateway, type Upstream } from './helpers';
import { fixtureSdl, startAuthSubgraph, startRevisionsSubgraph } from './subgraph-fixtures';

// The single-fetch path (graphql/single-fetch-path.ts) against the full Apollo Gateway path it stands in for: the
// same requests to a gateway with it and to one without it must give the same status, headers and JSON.

const kit = testTokens();
const supergraphSdl = composeSupergraph([
  { name: 'auth', sdl: fixtureSdl('auth') },
  { name: 'revisions', sdl: fixtureSdl('revisions') },
]);
let auth: Upstream;
let revisions: Upstream;
let fast: ListeningGateway;
let full: ListeningGateway;

const gateway = (env: Record<string, string> = {}, extra: Partial<GatewayDeps> = {}) =>
  listenGateway({ config: testConfig({ AUTH_URLS: auth.url, REVISIONS_URLS: revisions.url, ...env }), logger: silentLogger(), supergraphSdl, ...extra });

beforeAll(async () => {
  auth = await startAuthSubgraph();
  auth.app.get('/auth/.well-known/jwks.json', (_req, res) => {
    res.json(kit.jwks);
  });
  revisions = await startRevisionsSubgraph();
  fast = await gateway();
  full = await gateway({}, { graphqlSingleFetch: false });
});

afterAll(async () => {
  await fast?.close();
  await full?.close();
  await auth?.close();
  await revisions?.close();
});

/** The count of operations a gateway answered by each path. */
async function paths(g: ListeningGateway): Promise<Record<string, number>> {
  const m = await g.gw.metrics.getSingleMetric('vellum_gateway_graphql_operations_total')!.get();
  return Object.fromEntries(m.values.map((v) => [v.labels.path, v.value]));
}

/** Headers that differ between any two answers (dates, ids, the connection's). */
const VOLATILE = new Set(['date', 'x-request-id', 'connection', 'keep-alive', 'traceparent']);
const stable = (h: Record<string, unknown>) => Object.fromEntries(Object.entries(h).filter(([k]) => !VOLATILE.has(k)));

/** POST the same body to both gateways: the same answer; returns the path the fast gateway took. */
async function same(body: object, headers: Record<string, string> = {}): Promise<{ path: string; status: number; body: Record<string, unknown> }> {
  const before = await paths(fast);
  const send = (g: ListeningGateway) => request(g.base).post('/graphql/system').set(headers).send(body);
  const a = await send(fast);
  const b = await send(full);
  expect({ status: a.status, body: a.body, headers: stable(a.headers) }).toEqual({ status: b.status, body: b.body, headers: stable(b.headers) });
  const after = await paths(fast);
  const took = Object.keys(after).filter((k) => after[k] !== (before[k] ?? 0));
  expect(took).toHaveLength(1);
  return { path: took[0]!, status: a.status, body: a.body };
}

describe('GraphQL operations planned to one subgraph fetch', () => {
  it('go straight to the subgraph, with the same answer as through Apollo Gateway', async () => {
    const r = await same({ query: '{ revisions { id collection activity { action } } }' });
    expect(r.path).toBe('single_fetch');
    expect(r.body.data).toEqual({
      revisions: [
        { id: '1', collection: 'articles', activity: { action: 'update' } },
        { id: '2', collection: 'articles', activity: { action: 'create' } },
      ],
    });
    // the subgraph got the client's own operation
    expect(revisions.seen.at(-2)!.url).toBe('/graphql');
  });

  it('keep aliases, fragments, variables, __typename, the chosen operation and directives', async () => {
    const query = `
      query A($n: Int, $skip: Boolean!) { list: revisions(limit: $n) { ...F kind: __typename activity { ... on vellum_activity { action } } collection @skip(if: $skip) } }
      query B { __typename revisions { id } }
      fragment F on vellum_revisions { key: id }`;
    const a = await same({ query, variables: { n: 2, skip: true }, operationName: 'A' });
    expect(a.path).toBe('single_fetch');
    expect(a.body.data).toEqual({
      list: [
        { key: '1', kind: 'vellum_revisions', activity: { action: 'update' } },
        { key: '2', kind: 'vellum_revisions', activity: { action: 'create' } },
      ],
    });
    const b = await same({ query, operationName: 'B' });
    expect(b.path).toBe('single_fetch');
    expect(b.body.data).toEqual({ __typename: 'Query', revisions: [{ id: '1' }, { id: '2' }] });
    // the same document again: the decision is cached, the answer the same
    expect((await same({ query, variables: { n: 1, skip: false }, operationName: 'A' })).path).toBe('single_fetch');
  });

  it('forward the caller’s token and headers as the full path does', async () => {
    const t = kit.sign();
    const r = await same({ query: '{ users_me { id } }' }, { authorization: `Bearer ${t}`, 'x-request-id': 'sf-1', cookie: 'a=1' });
    expect([r.path, r.body]).toEqual(['single_fetch', { data: { users_me: { id: 'u-me' } } }]);
    const seen = auth.seen.filter((s) => s.url === '/graphql').at(-2)!.headers;
    expect([seen.authorization, seen['x-request-id'], seen.cookie]).toEqual([`Bearer ${t}`, 'sf-1', 'a=1']);
  });

  it('take the full path for a cross-subgraph join, a mutation and introspection', async () => {
    const join = await same({ query: '{ revisions { id activity { user { id email } } } }' });
    expect(join.path).toBe('planned');
    expect(join.body.data).toEqual({
      revisions: [
        { id: '1', activity: { user: { id: 'u-1', email: 'u-1@example.com' } } },
        { id: '2', activity: { user: { id: 'u-2', email: 'u-2@example.com' } } },
      ],
    });
    const login = await same({ query: 'mutation { auth_login(email: "a@b.c", password: "secret") { access_token } }' });
    expect([login.path, login.body]).toEqual(['planned', { data: { auth_login: { access_token: 'a-1' } } }]);
    const schema = await same({ query: '{ __schema { queryType { name } } revisions { id } }' });
    expect(schema.path).toBe('planned');
  });

  it('take the full path when anything is off: validation, variables, a subgraph’s errors, another media type', async () => {
    const invalid = await same({ query: '{ revisions { nope } }' });
    expect([invalid.path, invalid.status]).toEqual(['planned', 400]);
    const syntax = await same({ query: '{ revisions { ' });
    expect([syntax.path, syntax.status]).toEqual(['planned', 400]);
    const variables = await same({ query: 'query($n: Int) { revisions(limit: $n) { id } }', variables: { n: 'many' } });
    expect([variables.path, variables.status]).toEqual(['planned', 400]);
    // the fixture resolves no aggregate: null for a non-null list, an error from the subgraph
    const failing = await same({ query: '{ revisions_aggregated { countAll } }' });
    expect(failing.path).toBe('planned');
    expect(failing.body.errors).toBeDefined();
    const graphqlResponse = await same({ query: '{ revisions { id } }' }, { accept: 'application/graphql-response+json' });
    expect(graphqlResponse.path).toBe('planned');
    const extensions = await same({ query: '{ revisions { id } }', extensions: {} });
    expect(extensions.path).toBe('planned');
  });

  it.each([
    [
      'down',
      async () => {
        const dead: Upstream = await startUpstream('dead');
        await dead.kill();
        return dead;
      },
    ],
    [
      'without an answer in time (one timeout, not two)',
      () =>
        startUpstream('hanging', (app) => {
          app.post('/graphql', () => {
            /* never answers */
          });
        }),
    ],
  ])('a subgraph %s gives the same SERVICE_UNAVAILABLE as the full path, counted once', async (_name, upstream) => {
    const env = { REVISIONS_URLS: (await upstream()).url, UPSTREAM_RESPONSE_TIMEOUT: '800' };
    const [a, b] = [await gateway(env), await gateway(env, { graphqlSingleFetch: false })];
    try {
      const answers = [];
      for (const g of [a, b]) {
        const started = Date.now();
        const r = await request(g.base).post('/graphql/system').send({ query: '{ revisions { id } }' });
        expect(Date.now() - started).toBeLessThan(1500);
        const errors = await g.gw.metrics.getSingleMetric('vellum_gateway_upstream_errors_total')!.get();
        answers.push({ status: r.status, body: r.body, upstreamErrors: errors.values.reduce((n, v) => n + v.value, 0) });
      }
      expect(answers[0]).toEqual(answers[1]);
      expect(await paths(a)).toEqual({ planned: 1 });
      expect(answers[0]!.upstreamErrors).toBe(1);
      expect((answers[0]!.body as { errors: { extensions: unknown }[] }).errors[0]!.extensions).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        service: 'revisions',
      });
    } finally {
      await a.close();
      await b.close();
    }
  });
});
