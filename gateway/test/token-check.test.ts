import request from 'supertest';
import { createGateway } from '../src/app';
import { silentLogger, startUpstream, testConfig, type Upstream, listenGateway, type ListeningGateway } from './helpers';
import { errorCode, testTokens } from '@vellum/testing';

const kit = testTokens('k1');
const rotated = testTokens('k2');
const forger = testTokens('k1'); // same kid, different key: a bad signature
let jwks: { keys: object[] } = kit.jwks;
let jwksFetches = 0;
let auth: Upstream;
let revisions: Upstream;
let gateway: ListeningGateway;
let base: string;

beforeAll(async () => {
  auth = await startUpstream('auth', (app) => {
    app.get('/auth/.well-known/jwks.json', (_req, res) => {
      jwksFetches++;
      res.json(jwks);
    });
    app.post('/auth/refresh', (req, res) => {
      res.json({ data: { cookie: req.headers.cookie ?? null } });
    });
  });
  revisions = await startUpstream('revisions', (app) => {
    app.get('/revisions', (req, res) => {
      res.json({ data: [], authorization: req.headers.authorization ?? null, cookie: req.headers.cookie ?? null, url: req.originalUrl });
    });
  });
  gateway = await listenGateway({
    config: testConfig({ AUTH_URLS: auth.url, REVISIONS_URLS: revisions.url }),
    logger: silentLogger(),
    isSessionRevoked: (s) => s === 'revoked-session',
  });
  base = gateway.base;
});

afterAll(async () => {
  await gateway?.close();
  await auth?.close();
  await revisions?.close();
});

describe('token checks before routing', () => {
  it('lets a request without a token through as the public role', async () => {
    const r = await request(base).get('/revisions');
    expect(r.status).toBe(200);
    expect(r.body.authorization).toBeNull();
  });

  it('forwards a valid token unchanged (the service verifies again)', async () => {
    const t = kit.sign();
    const r = await request(base).get('/revisions').set('Authorization', `Bearer ${t}`);
    expect(r.status).toBe(200);
    expect(r.body.authorization).toBe(`Bearer ${t}`);
    const q = await request(base).get(`/revisions?access_token=${t}`);
    expect(q.body.url).toBe(`/revisions?access_token=${t}`);
  });

  it('rejects bad tokens early with the contract codes, without calling the service', async () => {
    const before = revisions.seen.length;
    const expired = await request(base)
      .get('/revisions')
      .set('Authorization', `Bearer ${kit.sign({}, { expiresIn: -10 })}`);
    expect([expired.status, errorCode(expired)]).toEqual([401, 'TOKEN_EXPIRED']);
    const forged = await request(base).get('/revisions').set('Authorization', `Bearer ${forger.sign()}`);
    expect([forged.status, errorCode(forged)]).toEqual([403, 'INVALID_TOKEN']);
    const garbage = await request(base).get('/revisions').set('Authorization', 'Bearer not-a-jwt');
    expect([garbage.status, errorCode(garbage)]).toEqual([401, 'INVALID_CREDENTIALS']);
    const wrongIssuer = await request(base)
      .get('/revisions')
      .set('Authorization', `Bearer ${kit.sign({}, { issuer: 'evil' })}`);
    expect([wrongIssuer.status, errorCode(wrongIssuer)]).toEqual([403, 'INVALID_TOKEN']);
    const revoked = await request(base)
      .get('/revisions')
      .set('Cookie', `vellum_session_token=${kit.sign({ session: 'revoked-session' })}`);
    expect([revoked.status, errorCode(revoked)]).toEqual([401, 'TOKEN_EXPIRED']);
    expect(revisions.seen.length).toBe(before);
  });

  it('applies the transport rules: query + header → 400; the cookie only when neither is present', async () => {
    const t = kit.sign();
    const both = await request(base).get(`/revisions?access_token=${t}`).set('Authorization', `Bearer ${t}`);
    expect([both.status, errorCode(both)]).toEqual([400, 'INVALID_PAYLOAD']);
    expect(both.body.errors[0].message).toMatch(/more than one method/);
    const expiredCookie = `vellum_session_token=${kit.sign({ session: 's1' }, { expiresIn: -10 })}`;
    const headerWins = await request(base).get('/revisions').set('Authorization', `Bearer ${t}`).set('Cookie', expiredCookie);
    expect(headerWins.status).toBe(200);
    expect(headerWins.body.cookie).toBe(expiredCookie);
    const cookieOnly = await request(base).get('/revisions').set('Cookie', expiredCookie);
    expect([cookieOnly.status, errorCode(cookieOnly)]).toEqual([401, 'TOKEN_EXPIRED']);
  });

  it('does not pre-check /auth/*: a session refresh with an expired session cookie reaches the auth service', async () => {
    const expiredCookie = `vellum_session_token=${kit.sign({ session: 's1' }, { expiresIn: -10 })}`;
    const r = await request(base).post('/auth/refresh').set('Cookie', expiredCookie).send({ mode: 'session' });
    expect(r.status).toBe(200);
    expect(r.body.data.cookie).toBe(expiredCookie);
  });

  it('caches the key set, refetches it on an unknown kid (key rotation), rate-limited', async () => {
    const fetchesBefore = jwksFetches;
    await request(base).get('/revisions').set('Authorization', `Bearer ${kit.sign()}`).expect(200);
    await request(base).get('/revisions').set('Authorization', `Bearer ${kit.sign()}`).expect(200);
    expect(jwksFetches).toBe(fetchesBefore);
    // Within the refetch interval (5 s default) an unknown kid is refused without hammering auth.
    jwks = { keys: [...kit.jwks.keys, ...rotated.jwks.keys] };
    const early = await request(base).get('/revisions').set('Authorization', `Bearer ${rotated.sign()}`);
    expect([early.status, jwksFetches]).toEqual([403, fetchesBefore]);
    jwks = kit.jwks;
    const gw2 = await createGateway({
      config: testConfig({ AUTH_URLS: auth.url, REVISIONS_URLS: revisions.url, JWKS_MIN_REFRESH_INTERVAL: '0' }),
      logger: silentLogger(),
    });
    try {
      await request(gw2.listener).get('/revisions').set('Authorization', `Bearer ${kit.sign()}`).expect(200);
      const n = jwksFetches;
      jwks = { keys: [...kit.jwks.keys, ...rotated.jwks.keys] };
      await request(gw2.listener).get('/revisions').set('Authorization', `Bearer ${rotated.sign()}`).expect(200);
      expect(jwksFetches).toBe(n + 1);
    } finally {
      await gw2.close();
      jwks = kit.jwks;
    }
  });

  it('answers 503 (not a hang) when the key set cannot be fetched at all', async () => {
    const gw3 = await createGateway({ config: testConfig({ AUTH_URLS: 'http://127.0.0.1:1', REVISIONS_URLS: revisions.url }), logger: silentLogger() });
    try {
      const r = await request(gw3.listener).get('/revisions').set('Authorization', `Bearer ${kit.sign()}`);
      expect([r.status, errorCode(r)]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    } finally {
      await gw3.close();
    }
  });
});
