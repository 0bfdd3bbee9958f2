import request from 'supertest';
import { startTestPlatform, type TestPlatform } from './platform-harness';

// Issue 14 end to end over NATS JetStream: ending a session (and revoking an API token) reaches the gateway and the
// revisions service within a second, through the maps the auth service publishes.
const skip = !(process.env.NATS_URL || process.env.TEST_NATS_URL);
const d = skip ? describe.skip : describe;
if (skip) console.warn('!!! sessions/tokens end to end over NATS SKIPPED: no NATS_URL / TEST_NATS_URL');

d('sessions and API tokens, end to end over NATS', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform({ useNats: true });
  });
  afterAll(() => p?.close());

  const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
  const sidOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()).sid as string;
  /** ms until both the gateway and the revisions service (called directly) refuse the token with 401. */
  async function msUntilRefused(token: string, startedAt: number, timeoutMs = 5000): Promise<number> {
    const refused = { gateway: 0, revisions: 0 };
    while (Date.now() - startedAt < timeoutMs && (!refused.gateway || !refused.revisions)) {
      const [g, r] = await Promise.all([
        request(p.url).get('/revisions?limit=1').set(bearer(token)),
        request(p.services.revisions.url).get('/revisions?limit=1').set(bearer(token)),
      ]);
      if (!refused.gateway && g.status === 401) refused.gateway = Date.now() - startedAt;
      if (!refused.revisions && r.status === 401) refused.revisions = Date.now() - startedAt;
      await new Promise((res) => setTimeout(res, 10));
    }
    if (!refused.gateway || !refused.revisions) throw new Error(`still accepted after ${timeoutMs} ms: ${JSON.stringify(refused)}`);
    return Math.max(refused.gateway, refused.revisions);
  }

  it('an ended session’s access token is refused by the gateway and the revisions service within 1 s', async () => {
    const keep = await p.login();
    const lost = await p.login();
    for (const base of [p.url, p.services.revisions.url]) {
      expect((await request(base).get('/revisions?limit=1').set(bearer(lost.access_token))).status).toBe(200);
    }
    const started = Date.now();
    const del = await request(p.url).delete(`/users/me/sessions/${sidOf(lost.access_token)}`).set(bearer(keep.access_token));
    expect(del.status).toBe(204);
    const ms = await msUntilRefused(lost.access_token, started);
    console.log(`session end reached the gateway and revisions in ${ms} ms`);
    expect(ms).toBeLessThan(1000);
    expect((await request(p.url).get('/revisions?limit=1').set(bearer(keep.access_token))).status).toBe(200);
  });
});
