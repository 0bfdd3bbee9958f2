import request from 'supertest';
import { createInProcessMessaging } from '@vellum/messaging';
import { REVOKED_SESSIONS_BUCKET } from '@vellum/contracts';
import { startGateway } from '../src/start';
import { testTokens } from '@vellum/testing';
import { silentLogger, sleep, startUpstream, testConfig } from './helpers';

describe('startGateway', () => {
  it('listens, watches revoked sessions from messaging, reports health, and stops', async () => {
    const kit = testTokens();
    const auth = await startUpstream('auth', (app) => {
      app.get('/auth/.well-known/jwks.json', (_req, res) => {
        res.json(kit.jwks);
      });
    });
    const messaging = createInProcessMessaging();
    const running = await startGateway(testConfig({ AUTH_URLS: auth.url }), { logger: silentLogger(), messaging });
    try {
      expect(running.name).toBe('gateway');
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const cookie = `vellum_session_token=${kit.sign({ session: 'sess-1' })}`;
      expect((await request(running.url).get('/users/whoami').set('Cookie', cookie)).status).toBe(200);
      const kv = await messaging.keyValue<boolean>(REVOKED_SESSIONS_BUCKET);
      await kv.put('sess-1', true);
      await sleep(50);
      const r = await request(running.url).get('/users/whoami').set('Cookie', cookie);
      expect([r.status, r.body.errors[0].extensions.code]).toEqual([401, 'TOKEN_EXPIRED']);
      const health = await running.health();
      expect(health.checks.messaging.status).toBe('ok');
      expect(health.checks.auth.status).toBe('ok');
    } finally {
      await running.stop();
      await messaging.close();
      await auth.close();
    }
    await expect(request(running.url).get('/server/ping')).rejects.toThrow();
  });
});
