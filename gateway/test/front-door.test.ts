// The proxied paths are answered by the bare node:http front door, not express: these pin down the behaviour it
// must keep (and the few things it does better: Vary merging, cached token verification).
import http from 'node:http';
import request from 'supertest';
import { createTokenVerifier, type TokenVerifier } from '@vellum/tokens';
import { silentLogger, sleep, startUpstream, testConfig, type Upstream, listenGateway, type ListeningGateway } from './helpers';
import { errorCode, testTokens } from '@vellum/testing';

const kit = testTokens('k1');
let upstream: Upstream;
let gateway: ListeningGateway;
let base: string;
const revoked = new Set<string>();
let verifications = 0;
let upstreamSawClose: () => void = () => {};

beforeAll(async () => {
  upstream = await startUpstream('revisions', (app) => {
    app.get('/revisions', (req, res) => {
      res.setHeader('Vary', 'Accept-Encoding');
      res.setHeader('X-Request-Id', 'from-the-service');
      res.json({ data: [], headers: req.headers });
    });
    app.get('/revisions/framed', (_req, res) => {
      res.setHeader('X-Frame-Options', 'SAMEORIGIN');
      res.json({ data: [] });
    });
    app.get('/revisions/abandoned', (_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.write('first;');
      res.on('close', () => upstreamSawClose());
    });
    app.get('/revisions/stall', (_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.write('first;'); // then silence, with the connection open
    });
  });
  const inner = createTokenVerifier(kit.keySource);
  const verifier: TokenVerifier = {
    verify: (t) => {
      verifications++;
      return inner.verify(t);
    },
  };
  gateway = await listenGateway({
    config: testConfig({ REVISIONS_URLS: upstream.url, ITEMS_URLS: 'http://127.0.0.1:1', CORS_ENABLED: 'true', CORS_ORIGIN: 'https://app.example.com' }),
    logger: silentLogger(),
    verifier,
    isSessionRevoked: (s) => revoked.has(s),
  });
  base = gateway.base;
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

describe('front door (proxied paths on bare node:http)', () => {
  it('verifies a token once, then from memory; a revoked session is still refused at once', async () => {
    const token = kit.sign({ session: 'sess-1' });
    const before = verifications;
    for (let i = 0; i < 3; i++) await request(base).get('/revisions').set('Authorization', `Bearer ${token}`).expect(200);
    await request(base).get(`/revisions?access_token=${token}`).expect(200);
    expect(verifications - before).toBe(1);
    revoked.add('sess-1');
    try {
      const r = await request(base).get('/revisions').set('Authorization', `Bearer ${token}`);
      expect([r.status, errorCode(r)]).toEqual([401, 'TOKEN_EXPIRED']);
    } finally {
      revoked.delete('sess-1');
    }
  });

  it('reads ?access_token= as express does, percent-encoded names included', async () => {
    const t = kit.sign();
    const both = await request(base).get(`/revisions?access%5Ftoken=${t}`).set('Authorization', `Bearer ${t}`);
    expect([both.status, errorCode(both)]).toEqual([400, 'INVALID_PAYLOAD']);
    const forged = await request(base).get(`/revisions?x=1&access_token=${t.slice(0, -4)}AAAA`);
    expect([forged.status, errorCode(forged)]).toEqual([403, 'INVALID_TOKEN']);
    // nested or repeated: not a token (qs gives an object / array), the request goes through as public
    await request(base)
      .get(`/revisions?access_token[a]=${t.slice(0, -4)}AAAA`)
      .expect(200);
    await request(base).get('/revisions?access_token=a&access_token=b').expect(200);
  });

  it('errors carry the envelope, the request id and the security and CORS headers; HEAD gets no body', async () => {
    const r = await request(base)
      .get('/revisions')
      .set('Authorization', 'Bearer not-a-jwt')
      .set('Origin', 'https://app.example.com')
      .set('X-Request-Id', 'rid-1');
    expect([r.status, errorCode(r)]).toEqual([401, 'INVALID_CREDENTIALS']);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.headers['x-request-id']).toBe('rid-1');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['access-control-allow-origin']).toBe('https://app.example.com');
    const head = await request(base).head('/items/articles');
    expect(head.status).toBe(503);
    expect(head.text ?? '').toBe('');
  });

  it("keeps a service's own headers, replaces its X-Request-Id, and merges Vary", async () => {
    const r = await request(base).get('/revisions').set('Origin', 'https://app.example.com').set('X-Request-Id', 'rid-2');
    expect(r.headers['x-request-id']).toBe('rid-2');
    expect(r.headers.vary).toMatch(/Accept-Encoding/);
    expect(r.headers.vary).toMatch(/Origin/);
    expect(r.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect((await request(base).get('/revisions/framed')).headers['x-frame-options']).toBe('SAMEORIGIN');
    expect((await request(base).get('/revisions')).headers['x-frame-options']).toBe('DENY');
  });

  it('drops hop-by-hop and Connection-listed request headers, keeps the rest', async () => {
    const seen = await new Promise<Record<string, string>>((resolve, reject) => {
      const req = http.request(
        `${base}/revisions`,
        { headers: { Connection: 'keep-alive, x-hop', 'X-Hop': 'secret', 'X-Keep': 'kept', TE: 'trailers' } },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c));
          res.on('end', () => resolve(JSON.parse(body).headers));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(seen['x-keep']).toBe('kept');
    expect(seen['x-hop']).toBeUndefined();
    expect(seen.te).toBeUndefined();
    expect(seen.host).toBe(new URL(upstream.url).host);
  });

  it('a caller that goes away mid-response ends the upstream request too', async () => {
    const closed = new Promise<void>((r) => (upstreamSawClose = r));
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${base}/revisions/abandoned`, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
      setTimeout(() => reject(new Error('no first chunk')), 2000);
    });
    const started = Date.now();
    await closed;
    expect(Date.now() - started).toBeLessThan(1000); // not the 1.5 s idle limit: at once
  });

  it('cuts a response whose upstream goes silent mid-body after the idle limit', async () => {
    const started = Date.now();
    const outcome = await new Promise<{ first: string; aborted: boolean }>((resolve, reject) => {
      http
        .get(`${base}/revisions/stall`, (res) => {
          let first = '';
          res.on('data', (c: Buffer) => (first += c));
          res.on('error', () => undefined);
          res.on('close', () => resolve({ first, aborted: !res.complete }));
        })
        .on('error', reject);
    });
    expect(outcome).toEqual({ first: 'first;', aborted: true });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(1400); // UPSTREAM_RESPONSE_TIMEOUT is 1500 ms in tests
    expect(took).toBeLessThan(4000);
    await sleep(10);
  });
});
