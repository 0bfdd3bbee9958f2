import request from 'supertest';
import { createInProcessMessaging } from '@vellum/messaging';
import { createTokenVerifier, staticKeySource, watchAccessRules } from '@vellum/tokens';
import { freePort } from '@vellum/testing';
import { createApp } from '../src/app';
import { createPool } from '../src/data/pool';
import { jwks, logger, signToken } from './helpers';

// The contract: a dependency that is down gets a bounded 503 SERVICE_UNAVAILABLE, never a hang or a 500.
describe('revisions with its database down', () => {
  it('answers 503 SERVICE_UNAVAILABLE quickly', async () => {
    const pool = createPool(`postgres://nobody@127.0.0.1:${await freePort()}/none`, 2);
    const messaging = createInProcessMessaging();
    const { app } = createApp({
      pool,
      rules: (await watchAccessRules(messaging)).rules,
      verifier: createTokenVerifier(staticKeySource(jwks)),
      logger,
      config: { QUERY_LIMIT_DEFAULT: 100, QUERY_LIMIT_MAX: -1, QUERY_DEFERRED_JOIN_OFFSET: 1000 },
    });
    const t = Date.now();
    const r = await request(app)
      .get('/revisions')
      .set('Authorization', `Bearer ${signToken({ id: 'a', role: 'r', admin_access: true })}`);
    expect(r.status).toBe(503);
    expect(r.body.errors[0].extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', service: 'database' });
    expect(Date.now() - t).toBeLessThan(5000);
    await pool.end();
    await messaging.close();
  });
});
