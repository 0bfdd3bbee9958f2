import request from 'supertest';
import { sendInTurn, startTestPlatform, type TestPlatform } from './platform-harness';

// Issue 5: the gateway's per-IP rate limit in the embedded topology → 429 REQUESTS_EXCEEDED with Retry-After.
describe('rate limiting at the gateway', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform({ overrides: { RATE_LIMITER_ENABLED: 'true', RATE_LIMITER_POINTS: '5', RATE_LIMITER_DURATION: '30s' } });
  });
  afterAll(() => p?.close());

  it('answers 429 with Retry-After once the budget is spent, and never limits /server/ping', async () => {
    const { statuses, last } = await sendInTurn(7, () => request(p.url).get('/revisions?limit=1'));
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(last.body.errors[0].extensions).toMatchObject({ code: 'REQUESTS_EXCEEDED', limit: 5 });
    expect((await request(p.url).get('/server/ping')).status).toBe(200);
  });
});
