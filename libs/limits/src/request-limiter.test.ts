import type { Limiter, LimitState } from './limiter';
import { rateLimit, requestLimiter } from './request-limiter';

const state = (consumed: number, points: number): LimitState => ({
  consumed,
  remaining: Math.max(0, points - consumed),
  exceeded: consumed > points,
  resetAt: Date.now() + 1500,
});

/** A limiter in a unit test: counts per key, or fails like a store whose Redis is down. */
function fakeLimiter(points: number) {
  const counts = new Map<string, number>();
  const ctl = { down: false };
  const limiter: Limiter = {
    points,
    async consume(key) {
      if (ctl.down) throw new Error('redis not ready (reconnecting)');
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return state(counts.get(key)!, points);
    },
    peek: async (key) => state(counts.get(key) ?? 0, points),
    reset: async (key) => void counts.delete(key),
  };
  return { limiter, ctl };
}

describe('requestLimiter', () => {
  it('answers 429 REQUESTS_EXCEEDED with limit, reset and Retry-After past the budget, per key', async () => {
    const { limiter } = fakeLimiter(2);
    const limit = requestLimiter({ limiter, logger: { warn: () => undefined } });
    expect(await limit('a')).toBeUndefined();
    expect(await limit('a')).toBeUndefined();
    const refused = await limit('a');
    expect(refused).toMatchObject({ code: 'REQUESTS_EXCEEDED', status: 429, headers: { 'Retry-After': '2' } });
    expect(refused!.extensions).toMatchObject({ limit: 2, reset: expect.any(String) });
    expect(await limit('b')).toBeUndefined();
  });

  it('fails open while the store fails, warning at most once per interval', async () => {
    const { limiter, ctl } = fakeLimiter(1);
    const warnings: object[] = [];
    const limit = requestLimiter({ limiter, logger: { warn: (o) => warnings.push(o) }, warnEveryMs: 60_000 });
    ctl.down = true;
    for (let i = 0; i < 5; i++) expect(await limit('a')).toBeUndefined();
    expect(warnings).toEqual([{ err: 'redis not ready (reconnecting)' }]);
    ctl.down = false;
    expect(await limit('a')).toBeUndefined();
    expect(await limit('a')).toMatchObject({ code: 'REQUESTS_EXCEEDED' });
  });
});

describe('rateLimit middleware', () => {
  it('keys by req.ip (then the socket address) and passes the refusal to next()', async () => {
    const { limiter } = fakeLimiter(1);
    const mw = rateLimit(requestLimiter({ limiter, logger: { warn: () => undefined } }));
    const run = (req: { ip?: string; socket: { remoteAddress?: string } }) => new Promise<unknown>((resolve) => mw(req, {}, resolve));
    expect(await run({ ip: '10.0.0.1', socket: { remoteAddress: '127.0.0.1' } })).toBeUndefined();
    expect(await run({ ip: '10.0.0.1', socket: { remoteAddress: '127.0.0.1' } })).toMatchObject({ code: 'REQUESTS_EXCEEDED' });
    expect(await run({ socket: { remoteAddress: '127.0.0.1' } })).toBeUndefined();
    expect(await run({ socket: { remoteAddress: '127.0.0.1' } })).toMatchObject({ code: 'REQUESTS_EXCEEDED' });
  });
});
