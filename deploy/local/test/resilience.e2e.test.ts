import request from 'supertest';
import { loadRevisionsConfig, startRevisions } from '@vellum/revisions';
import type { RunningService } from '@vellum/http';
import { startTestPlatform, type TestPlatform } from './platform-harness';
import { silentLogger } from '@vellum/testing';

// Issue 5's resilience points in the embedded topology: two revisions replicas behind the gateway, one killed
// → no failed request; all killed → 503 SERVICE_UNAVAILABLE within the timeout, never a hang; back → recovery.
describe('gateway resilience with revisions replicas', () => {
  let p: TestPlatform;
  let token: string;
  let revived: RunningService | undefined;
  beforeAll(async () => {
    p = await startTestPlatform({
      local: { REVISIONS_REPLICAS: '2' },
      overrides: { UPSTREAM_CONNECT_TIMEOUT: '1s', UPSTREAM_RESPONSE_TIMEOUT: '3s', UPSTREAM_FAIL_COOLDOWN: '300ms' },
    });
    token = (await p.login()).access_token;
  });
  afterAll(async () => {
    await revived?.stop();
    await p?.close();
  });

  const list = () => request(p.url).get('/revisions?limit=1').set('Authorization', `Bearer ${token}`);

  it('keeps answering with one replica killed, answers 503 fast with none, and recovers', async () => {
    const [first, second] = p.revisionsReplicas;
    const before = await Promise.all(Array.from({ length: 10 }, list));
    expect(before.map((r) => r.status)).toEqual(Array(10).fill(200));

    await second.stop();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await list()).status);
    expect(statuses.slice(1)).toEqual(Array(19).fill(200));

    const port = Number(new URL(first.url).port);
    await first.stop();
    const t = Date.now();
    const down = await list();
    expect(down.status).toBe(503);
    expect(down.body.errors[0].extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', service: 'revisions' });
    expect(Date.now() - t).toBeLessThan(3000);
    expect((await request(p.url).get('/server/health')).status).toBe(503);

    revived = await startRevisions(
      loadRevisionsConfig({ DATABASE_URL: p.databaseUrls.revisions, AUTH_URL: p.services.auth.url, PORT: String(port), HOST: '127.0.0.1' }),
      { logger: silentLogger('revived'), messaging: p.messaging },
    );
    const deadline = Date.now() + 5000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await list()).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  });
});
