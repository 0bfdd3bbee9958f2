// Issue 17 through the embedded topology (`npm start`): a client rotating X-Forwarded-For cannot escape the
// failed-login budget (17.1 + 17.2), and every process answers the HTTP parser's 414/431 in the envelope (17.3).
import request from 'supertest';
import { hugeFilterRequest, hugeHeadersRequest, parseRawResponse, rawHttpExchange } from '@vellum/testing';
import { ADMIN, sendInTurn, startTestPlatform, type TestPlatform } from './platform-harness';

let p: TestPlatform;
let auth: { authorization: string };
beforeAll(async () => {
  p = await startTestPlatform({ overrides: { AUTH_LOGIN_FAILURES_PER_ADDRESS: '5', AUTH_LOGIN_FAILURES_PER_ACCOUNT: '3', AUTH_LOGIN_FAILURE_WINDOW: '1m' } });
  // signed in before the first test spends this address's login budget
  auth = { authorization: `Bearer ${(await p.login()).access_token}` };
});
afterAll(() => p?.close());

it('failed logins with a rotating X-Forwarded-For still spend the socket address budget → 429 with Retry-After', async () => {
  const { statuses, last } = await sendInTurn(8, (i) =>
    request(p.url)
      .post('/auth/login')
      .set('X-Forwarded-For', `203.0.113.${i + 1}`)
      .send({ email: `nobody-${i}@example.com`, password: 'wrong-password' }),
  );
  expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  expect(last.body.errors[0].extensions.code).toBe('REQUESTS_EXCEEDED');
  expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  // the budget is the client's: the right password from it is refused too, until the window ends
  expect((await request(p.url).post('/auth/login').send({ email: ADMIN.email, password: ADMIN.password })).status).toBe(429);
});

it('the gateway and every service answer a request line / headers too large in the envelope, pointing at SEARCH', async () => {
  const urls = Object.entries(p.services).map(([name, s]) => [name, s.url] as const);
  expect(urls.map(([n]) => n).sort()).toEqual(['auth', 'gateway', 'items', 'mailer', 'revisions']);
  for (const [name, url] of urls) {
    const long = parseRawResponse(await rawHttpExchange(url, hugeFilterRequest('/revisions')));
    const big = parseRawResponse(await rawHttpExchange(url, hugeHeadersRequest('/revisions')));
    const codeOf = (b: unknown) => (b as { errors: { extensions: { code: string }; message: string }[] }).errors[0];
    expect({ name, status: long.status, code: codeOf(long.body).extensions.code, search: /SEARCH/.test(codeOf(long.body).message) }).toEqual({
      name,
      status: 414,
      code: 'URI_TOO_LONG',
      search: true,
    });
    expect({ name, status: big.status, code: codeOf(big.body).extensions.code }).toEqual({ name, status: 431, code: 'HEADERS_TOO_LARGE' });
  }
});

it('a body nested more than 100 levels deep is 400 INVALID_PAYLOAD at the gateway and at every service (it was a 500)', async () => {
  const fields = [
    { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
    { field: 'j', type: 'json' },
  ];
  await request(p.url).post('/collections').set(auth).send({ collection: 'deep', fields }).expect(200);
  // the bodies as JSON text, built without a serializer (a client's recursive one overflows on them too)
  const nested = (depth: number) => '{"_and":['.repeat(depth) + '{"id":{"_eq":1}}' + ']}'.repeat(depth);
  const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  const deepFilter = `{"query":{"filter":${nested(2000)},"limit":1}}`;
  const gql = `{"query":"query($f: vellum_revisions_filter) { revisions(filter: $f) { id } }","variables":{"f":${nested(2000)}}}`;
  // [method, path, body, where: the gateway, then the service that owns the path]
  const cases: [string, string, string, string[]][] = [
    ['search', '/items/deep', deepFilter, [p.url, p.services.items!.url]],
    ['search', '/revisions', deepFilter, [p.url, p.services.revisions!.url]],
    ['post', '/items/deep', `{"j":${arrays(6000)}}`, [p.url, p.services.items!.url]],
    ['post', '/graphql/system', gql, [p.url]],
  ];
  for (const [method, path, body, bases] of cases) {
    for (const base of bases) {
      const call = method === 'search' ? request(base).search(path) : request(base).post(path);
      const r = await call.set(auth).set('content-type', 'application/json').send(body);
      expect([path, base, r.status, r.body.errors?.[0]?.extensions?.code]).toEqual([path, base, 400, 'INVALID_PAYLOAD']);
    }
  }
  // 100 levels are taken: a JSON field of 99 nested arrays in an item (the item's object is the first level)
  const ok = await request(p.url)
    .post('/items/deep')
    .set(auth)
    .send({ j: arrays(99) });
  expect(ok.status).toBe(200);
});
