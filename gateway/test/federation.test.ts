import request from 'supertest';
import { createGateway } from '../src/app';
import { composeSupergraph } from '../src/graphql/compose-supergraph';
import { testTokens } from '@vellum/testing';
import { silentLogger, startUpstream, testConfig, type Upstream, listenGateway, type ListeningGateway } from './helpers';
import { fixtureSdl, startAuthSubgraph, startRevisionsSubgraph } from './subgraph-fixtures';

const kit = testTokens();
let auth: Upstream;
let revisions: Upstream;
let jwksServer: Upstream;
let gateway: ListeningGateway;
let base: string;

beforeAll(async () => {
  auth = await startAuthSubgraph();
  auth.app.get('/auth/.well-known/jwks.json', (_req, res) => {
    res.json(kit.jwks);
  });
  revisions = await startRevisionsSubgraph();
  jwksServer = auth;
  const supergraphSdl = composeSupergraph([
    { name: 'auth', sdl: fixtureSdl('auth') },
    { name: 'revisions', sdl: fixtureSdl('revisions') },
  ]);
  gateway = await listenGateway({
    config: testConfig({ AUTH_URLS: auth.url, REVISIONS_URLS: revisions.url }),
    logger: silentLogger(),
    supergraphSdl,
  });
  base = gateway.base;
});

afterAll(async () => {
  await gateway?.close();
  await auth?.close();
  await revisions?.close();
  void jwksServer;
});

const gql = (query: string, variables?: object) => request(base).post('/graphql/system').send({ query, variables });

describe('federation on /graphql/system', () => {
  it('joins an entity across subgraphs (a revision’s activity user from auth)', async () => {
    const r = await gql('{ revisions { id collection activity { action user { id email } } } }');
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store'); // authenticated answers: never kept by a cache
    expect(r.body).toEqual({
      data: {
        revisions: [
          { id: '1', collection: 'articles', activity: { action: 'update', user: { id: 'u-1', email: 'u-1@example.com' } } },
          { id: '2', collection: 'articles', activity: { action: 'create', user: { id: 'u-2', email: 'u-2@example.com' } } },
        ],
      },
    });
  });

  it('forwards the caller’s credentials, request id and forwarding headers to the subgraphs', async () => {
    const t = kit.sign();
    const r = await request(base)
      .post('/graphql/system')
      .set('Authorization', `Bearer ${t}`)
      .set('Cookie', 'a=1')
      .set('X-Request-Id', 'gql-1')
      .send({ query: '{ users_me { id } }' });
    expect(r.body).toEqual({ data: { users_me: { id: 'u-me' } } });
    expect(r.headers['x-request-id']).toBe('gql-1');
    const seen = auth.seen.filter((s) => s.url === '/graphql').at(-1)!.headers;
    expect(seen.authorization).toBe(`Bearer ${t}`);
    expect(seen.cookie).toBe('a=1');
    expect(seen['x-request-id']).toBe('gql-1');
    expect(seen['x-forwarded-for']).toBe('127.0.0.1');
    // ?access_token= reaches the subgraph as a bearer (one method only)
    const q = await request(base).post(`/graphql/system?access_token=${t}`).send({ query: '{ users_me { id } }' });
    expect(q.body.data.users_me).toEqual({ id: 'u-me' });
  });

  it('passes every Set-Cookie of a cookie-mode login back to the caller', async () => {
    const r = await gql('mutation { auth_login(email: "a@b.c", password: "secret", mode: "cookie") { access_token expires } }');
    expect(r.body.data.auth_login).toEqual({ access_token: 'a-1', expires: '900000' });
    const cookies = r.headers['set-cookie'] as unknown as string[];
    expect(cookies).toHaveLength(2);
    expect(cookies[0]).toMatch(/^vellum_refresh_token=refresh-1;.*HttpOnly/);
  });

  it('answers errors in the contract’s GraphQL shape', async () => {
    const wrong = await gql('mutation { auth_login(email: "a@b.c", password: "nope") { access_token } }');
    expect(wrong.status).toBe(200);
    expect(wrong.body.data).toEqual({ auth_login: null });
    expect(wrong.body.errors[0]).toMatchObject({ message: 'Invalid user credentials.', extensions: { code: 'INVALID_CREDENTIALS' }, path: ['auth_login'] });
    expect(wrong.headers['cache-control']).toBe('no-store');
    const syntax = await gql('{ revisions { ');
    expect(syntax.status).toBe(400);
    expect(syntax.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION');
    const unknown = await gql('{ nope }');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION');
  });

  it('refuses lists nested more than 16 deep before planning them (the planner is exponential in that nesting)', async () => {
    const lists = (d: number) => '['.repeat(d) + '1' + ']'.repeat(d);
    const started = Date.now();
    const deep = await gql(`{ revisions(filter: {id: {_in: ${lists(500)}}}) { id } }`);
    expect([deep.status, deep.body.errors[0]]).toEqual([
      400,
      expect.objectContaining({ message: 'Lists are nested more than 16 deep.', extensions: { code: 'GRAPHQL_VALIDATION' } }),
    ]);
    expect(Date.now() - started).toBeLessThan(2000); // it ran for minutes, the gateway's thread held
    // a filter as deep as the services take (12 levels of _and) is planned and sent on
    let f = '{id: {_eq: 1}}';
    for (let i = 0; i < 12; i++) f = `{_and: [${f}]}`;
    const ok = await gql(`{ revisions(filter: ${f}) { id } }`);
    expect([ok.status, ok.body.errors?.[0]?.extensions?.code]).not.toEqual([400, 'GRAPHQL_VALIDATION']);
  });

  it('refuses a document of more than 5,000 tokens before parsing it whole', async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i).join(',');
    const big = await gql(`{ revisions(filter: {id: {_in: [${ids(6_000)}]}}) { id } }`);
    expect([big.status, big.body.errors[0].extensions.code, big.body.errors[0].message]).toEqual([
      400,
      'GRAPHQL_VALIDATION',
      expect.stringContaining('5000 tokens'),
    ]);
    expect((await gql(`{ revisions(filter: {id: {_in: [${ids(1_000)}]}}) { id } }`)).status).toBe(200);
  });

  it('answers a document with no runnable operation 400 GRAPHQL_VALIDATION, not 500', async () => {
    const post = (body: object) => request(base).post('/graphql/system').send(body);
    const cases = [
      { body: { query: '{ revisions { id } }', operationName: 'nope' }, message: 'Unknown operation named "nope".' },
      { body: { query: 'query A { revisions { id } } query B { revisions { id } }' }, message: /multiple operations/ },
      { body: { query: 'subscription { revisions { id } }' }, message: 'This API has no subscriptions.' },
    ];
    for (const c of cases) {
      const r = await post(c.body);
      expect(r.status).toBe(400);
      expect(r.body.errors).toEqual([{ message: expect.stringMatching(c.message), extensions: { code: 'GRAPHQL_VALIDATION' } }]);
    }
    const named = await post({ query: 'query A { revisions { id } } query B { nope }', operationName: 'A' });
    expect(named.status).toBe(400); // B is still validated (an unknown field), as graphql-js validates the whole document
  });

  it('serves GET queries (with a non-simple header, CSRF prevention) ', async () => {
    const q = encodeURIComponent('{ revisions { id } }');
    const r = await request(base).get(`/graphql/system?query=${q}`).set('Authorization', `Bearer ${kit.sign()}`);
    expect(r.status).toBe(200);
    expect(r.body.data.revisions).toHaveLength(2);
    const csrf = await request(base).get(`/graphql/system?query=${q}`);
    expect(csrf.status).toBe(400);
    const ok = await request(base).get(`/graphql/system?query=${q}`).set('apollo-require-preflight', 'true');
    expect(ok.status).toBe(200);
  });

  it('rejects a bad bearer token early; does not pre-check the session cookie (auth_refresh reads it)', async () => {
    const r = await request(base)
      .post('/graphql/system')
      .set('Authorization', `Bearer ${kit.sign({}, { expiresIn: -5 })}`)
      .send({ query: '{ revisions { id } }' });
    expect([r.status, r.body.errors[0].extensions.code]).toEqual([401, 'TOKEN_EXPIRED']);
    const c = await request(base)
      .post('/graphql/system')
      .set('Cookie', `vellum_session_token=${kit.sign({}, { expiresIn: -5 })}`)
      .send({ query: '{ revisions { id } }' });
    expect(c.status).toBe(200);
  });

  it('serves the composed API schema SDL', async () => {
    const r = await request(base).get('/server/specs/graphql/system');
    expect(r.status).toBe(200);
    expect(r.text).toContain('type vellum_revisions');
    expect(r.text).toContain('type vellum_users');
    expect(r.text).not.toContain('join__');
  });

  it('a subgraph that is down gives SERVICE_UNAVAILABLE in the GraphQL shape, fast', async () => {
    const dead: Upstream = await startUpstream('dead');
    await dead.kill();
    const gw2 = await createGateway({
      config: testConfig({ AUTH_URLS: dead.url, REVISIONS_URLS: revisions.url }),
      logger: silentLogger(),
      supergraphSdl: composeSupergraph([
        { name: 'auth', sdl: fixtureSdl('auth') },
        { name: 'revisions', sdl: fixtureSdl('revisions') },
      ]),
    });
    try {
      const started = Date.now();
      const r = await request(gw2.listener).post('/graphql/system').send({ query: '{ revisions { id activity { user { email } } } }' });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(r.status).toBe(200);
      expect(r.body.errors[0].extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', service: 'auth' });
    } finally {
      await gw2.close();
    }
  });
});
