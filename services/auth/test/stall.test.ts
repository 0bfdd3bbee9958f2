// Issue 17.3: every outcome of POST /auth/login (and of the password request) takes at least LOGIN_STALL_TIME,
// the errors answered before the use case included (invalid or malformed body, rate limit).
import request from 'supertest';
import { ADMIN, code, harness, type Harness } from './helpers';

const STALL = 250;
let h: Harness;
beforeAll(async () => {
  h = await harness({ LOGIN_STALL_TIME: String(STALL), RATE_LIMITER_ENABLED: 'true', RATE_LIMITER_POINTS: '1000' });
});
afterAll(() => h.close());

async function timed(req: request.Test): Promise<{ ms: number; status: number; code?: string }> {
  const t = performance.now();
  const r = await req;
  return { ms: performance.now() - t, status: r.status, code: code(r) };
}
const post = (path: string) => request(h.app).post(path);
const gql = (query: string) => request(h.app).post('/graphql').send({ query });

describe.each(['/auth/login', '/auth/password/request'])('POST %s: every outcome takes at least LOGIN_STALL_TIME', (path) => {
  it.each([
    ['missing fields', () => post(path).send({})],
    ['a field of the wrong type', () => post(path).send({ email: 42, password: ['x'] })],
    ['malformed JSON (the body parser)', () => post(path).set('Content-Type', 'application/json').send('{"email":')],
  ])('%s → 400 INVALID_PAYLOAD, stalled', async (_name, send) => {
    const r = await timed(send());
    expect({ status: r.status, code: r.code }).toEqual({ status: 400, code: 'INVALID_PAYLOAD' });
    expect(r.ms).toBeGreaterThanOrEqual(STALL - 2);
  });
});

it('the answer of the use case itself is stalled too (wrong password, success)', async () => {
  const wrong = await timed(post('/auth/login').send({ email: ADMIN.email, password: 'wrong-password' }));
  expect(wrong).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS' });
  expect(wrong.ms).toBeGreaterThanOrEqual(STALL - 2);
});

it('a refused rate limit (429) is stalled', async () => {
  const limited = await harness({ LOGIN_STALL_TIME: String(STALL), RATE_LIMITER_ENABLED: 'true', RATE_LIMITER_POINTS: '1', RATE_LIMITER_DURATION: '1m' });
  try {
    await request(limited.app).post('/auth/login').send({});
    const r = await timed(request(limited.app).post('/auth/login').send({ email: ADMIN.email, password: 'x' }));
    expect(r).toMatchObject({ status: 429, code: 'REQUESTS_EXCEEDED' });
    expect(r.ms).toBeGreaterThanOrEqual(STALL - 2);
  } finally {
    await limited.close();
  }
});

it('other routes are not stalled', async () => {
  const r = await timed(post('/auth/refresh').send({ refresh_token: 42 }));
  expect(r.status).toBe(400);
  expect(r.ms).toBeLessThan(STALL);
});

it('GraphQL auth_login / auth_password_request with invalid arguments are stalled', async () => {
  for (const query of [
    'mutation { auth_login(email: "not-an-email", password: "") { access_token } }',
    'mutation { auth_password_request(email: "not-an-email") }',
  ]) {
    const t = performance.now();
    const r = await gql(query);
    expect({ query, ms: performance.now() - t >= STALL - 2, code: r.body.errors?.[0]?.extensions?.code }).toEqual({ query, ms: true, code: 'INVALID_PAYLOAD' });
  }
});
