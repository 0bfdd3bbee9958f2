// POST /auth/login is a fast route: a listening auth service answers it on bare node:http (serviceListener), not
// through express. The answers must be the ones express gives: status, body, headers, cookies, the error envelope,
// the rate limits and the stall of every outcome.
import request from 'supertest';
import { listen, type Listening } from '@vellum/http';
import { ADMIN, code, harness, type Harness } from './helpers';

const STALL = 150;
let h: Harness;
let served: Listening;
beforeAll(async () => {
  h = await harness({ LOGIN_STALL_TIME: String(STALL), RATE_LIMITER_ENABLED: 'true', RATE_LIMITER_POINTS: '1000' });
  served = await listen(h.app);
});
afterAll(async () => {
  await served.close();
  await h.close();
});

const VARYING = ['date', 'x-request-id', 'connection', 'keep-alive', 'content-length', 'x-ratelimit-remaining'];
/** An answer with what differs from one call to the next (tokens, dates, request ids) left out. */
function shape(r: request.Response) {
  const headers = Object.fromEntries(Object.entries(r.headers).filter(([k]) => !VARYING.includes(k)));
  const cookies = ((headers['set-cookie'] as unknown as string[] | undefined) ?? []).map((c) => c.replace(/=[^;]*/, '=…').replace(/Expires=[^;]*/, 'Expires=…'));
  const data = r.body.data && Object.fromEntries(Object.entries(r.body.data as Record<string, unknown>).map(([k, v]) => [k, k === 'expires' ? v : typeof v]));
  // a refusal's reset time is computed per request by the limiter (two requests may differ by a millisecond)
  const body = JSON.parse(JSON.stringify(r.body).replace(/"reset":"[^"]*"/g, '"reset":"…"')) as unknown;
  return { status: r.status, headers: { ...headers, 'set-cookie': cookies }, body: data ? { data } : body };
}

const login = (to: string | Harness['app'], body: unknown) => request(to).post('/auth/login').send(body as object);
const malformed = (to: string | Harness['app']) => request(to).post('/auth/login').set('Content-Type', 'application/json').send('{"email":');

describe('POST /auth/login on the lane answers as express does', () => {
  it.each([
    ['json mode', { ...ADMIN }],
    ['cookie mode', { ...ADMIN, mode: 'cookie' }],
    ['session mode', { ...ADMIN, mode: 'session' }],
    ['a wrong password', { email: ADMIN.email, password: 'wrong-password' }],
    ['an unknown account', { email: 'nobody@example.com', password: 'wrong-password' }],
    ['missing fields', {}],
    ['a field of the wrong type', { email: 42, password: ['x'] }],
  ])('%s', async (_name, body) => {
    const lane = await login(served.url, body);
    const viaExpress = await login(h.app, body);
    expect(shape(lane)).toEqual(shape(viaExpress));
  });

  it('cookie and session modes set their cookie', async () => {
    expect((await login(served.url, { ...ADMIN, mode: 'cookie' })).headers['set-cookie']?.[0]).toMatch(new RegExp(`^${h.config.REFRESH_TOKEN_COOKIE_NAME}=`));
    expect((await login(served.url, { ...ADMIN, mode: 'session' })).headers['set-cookie']?.[0]).toMatch(new RegExp(`^${h.config.SESSION_COOKIE_NAME}=`));
  });

  it('malformed JSON: the same 400 INVALID_PAYLOAD', async () => {
    const lane = await malformed(served.url);
    expect([lane.status, code(lane)]).toEqual([400, 'INVALID_PAYLOAD']);
    expect(shape(lane)).toEqual(shape(await malformed(h.app)));
  });

  it('is answered without express (no express dispatch for a login)', async () => {
    const handle = jest.spyOn(h.app as unknown as { handle: (...args: unknown[]) => void }, 'handle'); // (express's dispatch: not in its types)
    try {
      expect((await login(served.url, ADMIN)).status).toBe(200);
      expect((await malformed(served.url)).status).toBe(400);
      expect(handle).not.toHaveBeenCalled();
      await request(served.url).post('/auth/refresh').send({});
      expect(handle).toHaveBeenCalled(); // (another route: express)
    } finally {
      handle.mockRestore();
    }
  });

  it.each([
    ['success', () => login(served.url, ADMIN), 200],
    ['missing fields', () => login(served.url, {}), 400],
    ['malformed JSON (the body parser)', () => malformed(served.url), 400],
    ['a wrong password', () => login(served.url, { email: 'nobody@example.com', password: 'x' }), 401],
  ])('every outcome takes at least LOGIN_STALL_TIME: %s', async (_name, send, status) => {
    const t = performance.now();
    const r = await send();
    expect(r.status).toBe(status);
    expect(performance.now() - t).toBeGreaterThanOrEqual(STALL - 2);
  });
});

it('the per-address rate limit (429 + Retry-After, stalled) and the failed-login budget, as express answers them', async () => {
  const limited = await harness({ LOGIN_STALL_TIME: String(STALL), RATE_LIMITER_ENABLED: 'true', RATE_LIMITER_POINTS: '2', RATE_LIMITER_DURATION: '1m' });
  const onLane = await listen(limited.app);
  try {
    await login(onLane.url, {});
    await login(onLane.url, {});
    const t = performance.now();
    const lane = await login(onLane.url, ADMIN);
    expect(performance.now() - t).toBeGreaterThanOrEqual(STALL - 2);
    expect([lane.status, code(lane)]).toEqual([429, 'REQUESTS_EXCEEDED']);
    expect(lane.headers['retry-after']).toBeDefined();
    const viaExpress = await login(limited.app, ADMIN);
    expect({ ...shape(lane), headers: { ...shape(lane).headers, 'retry-after': 'n' } }).toEqual({ ...shape(viaExpress), headers: { ...shape(viaExpress).headers, 'retry-after': 'n' } });
  } finally {
    await onLane.close();
    await limited.close();
  }
  const budget = await harness({ AUTH_LOGIN_FAILURES_PER_ACCOUNT: '1' });
  const served2 = await listen(budget.app);
  try {
    await login(served2.url, { email: ADMIN.email, password: 'wrong-password' });
    const lane = await login(served2.url, ADMIN);
    expect([lane.status, code(lane)]).toEqual([429, 'REQUESTS_EXCEEDED']);
    const viaExpress = await login(budget.app, ADMIN);
    expect(shape(lane).body).toEqual(shape(viaExpress).body);
  } finally {
    await served2.close();
    await budget.close();
  }
});
