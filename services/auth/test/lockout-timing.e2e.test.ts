import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { adminHarness, code, type Harness } from './helpers';

// A locked bucket, a wrong password, an unknown e-mail and a suspended user answer the same status, body and time
// (the stall): 200 rounds, the four outcomes sent together in each round and compared pair by pair (the median of
// the paired differences: load slows a round's four alike), in a rotating order: answers due at the same moment
// leave one event loop one after another, so a fixed order would time each outcome's place in that queue.
jest.setTimeout(300_000);

const ROUNDS = 200;
// the production default: under a loaded CI machine an argon2 verify must still fit inside it (it is what equalises)
const STALL = 500;
const PASSWORD = 'timing-password-1';

let h: Harness;
let admin: string;
beforeAll(async () => {
  ({ h, admin } = await adminHarness({ LOGIN_STALL_TIME: String(STALL), AUTH_LOGIN_ATTEMPTS: '10' }));
});
afterAll(() => h.close());

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2;
};
const login = (email: string, password: string) => request(h.app).post('/auth/login').send({ email, password });
async function timed(r: Promise<request.Response>): Promise<{ ms: number; status: number; body: string }> {
  const t = process.hrtime.bigint();
  const res = await r;
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, status: res.status, body: JSON.stringify(res.body) };
}
async function user(status = 'active'): Promise<{ id: string; email: string }> {
  const email = `t-${randomUUID()}@x.io`;
  const r = await request(h.app).post('/users').set('Authorization', `Bearer ${admin}`).send({ email, password: PASSWORD, status });
  expect(r.status).toBe(200);
  return { id: r.body.data.id, email };
}

it('locked bucket, wrong password, unknown e-mail and suspended user: same status and body, medians within 5 ms', async () => {
  const [wrong, locked, suspended] = [await user(), await user(), await user('suspended')];
  for (let i = 0; i < 10; i++) expect(code(await login(locked.email, 'guess'))).toBe('INVALID_CREDENTIALS');
  const outcomes = {
    locked: () => login(locked.email, PASSWORD),
    wrong: () => login(wrong.email, 'wrong-password'),
    unknown: () => login(`nobody-${randomUUID()}@x.io`, 'wrong-password'),
    suspended: () => login(suspended.email, PASSWORD),
  };
  const times: Record<keyof typeof outcomes, number[]> = { locked: [], wrong: [], unknown: [], suspended: [] };
  const bodies = new Set<string>();
  for (let round = 0; round < ROUNDS; round++) {
    // the wrong-password account must stay unlocked (10 per window): an admin unlock, outside the timing
    if (round % 8 === 0) await request(h.app).post(`/users/${wrong.id}/unlock`).set('Authorization', `Bearer ${admin}`).expect(204);
    const keys = Object.keys(outcomes) as (keyof typeof outcomes)[];
    const order = [...keys.slice(round % keys.length), ...keys.slice(0, round % keys.length)];
    const results = await Promise.all(order.map((k) => timed(outcomes[k]())));
    order.forEach((k, i) => {
      times[k].push(results[i]!.ms);
      bodies.add(`${results[i]!.status} ${results[i]!.body}`);
    });
  }
  expect([...bodies]).toEqual(['401 {"errors":[{"message":"Invalid user credentials.","extensions":{"code":"INVALID_CREDENTIALS"}}]}']);
  const gaps = Object.fromEntries((['locked', 'unknown', 'suspended'] as const).map((k) => [k, median(times[k].map((t, i) => t - times.wrong[i]!))]));
  console.log(
    `medians (ms): ${Object.entries(times)
      .map(([k, v]) => `${k} ${median(v).toFixed(1)}`)
      .join(', ')}; paired gaps vs wrong password: ${JSON.stringify(gaps)}`,
  );
  for (const gap of Object.values(gaps)) expect(Math.abs(gap)).toBeLessThan(5);
  for (const v of Object.values(times)) expect(median(v)).toBeGreaterThanOrEqual(STALL);
});
