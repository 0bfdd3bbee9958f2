import { LocalServices } from '@vellum/http';
import { createInProcessMessaging } from '@vellum/messaging';
import { openSse } from '@vellum/testing';
import { startGateway } from '../src/start';
import { silentLogger, startUpstream, testConfig, type Upstream } from './helpers';

// A server-sent event stream through the gateway, over HTTP (distributed) and handed over in-process (embedded):
// each event passes at once (no buffering, no compression), a stream longer than the upstream response timeout is
// not cut while events flow, CORS applies, and a stopping gateway cuts its streams instead of waiting for them.
let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream('revisions', (app) => {
    app.get('/revisions/stream', (req, res) => {
      // as the revisions service answers: no chunked framing, the events until the connection closes
      if (req.query.framing === 'close') res.removeHeader('Transfer-Encoding');
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        ...(req.query.framing === 'close' ? { Connection: 'close' } : {}),
      });
      let id = 0;
      const send = () => {
        res.write(`id: ${++id}\ndata: {"sent":${Date.now()}}\n\n`);
      };
      send();
      const timer = setInterval(send, 100);
      res.once('close', () => clearInterval(timer));
    });
  });
});
afterAll(() => upstream.close());

describe.each([
  ['http', 'chunked'],
  ['http', 'close'],
  ['in-process', 'chunked'],
  ['in-process', 'close'],
] as const)('an event stream through the gateway (%s, %s framing)', (via, framing) => {
  it('passes each event at once, uncompressed, for longer than the response timeout, with CORS; stop() cuts it', async () => {
    const local = new LocalServices();
    if (via === 'in-process') local.register(upstream.url, (req, res) => upstream.app(req, res));
    const messaging = createInProcessMessaging();
    const gateway = await startGateway(
      testConfig({
        REVISIONS_URLS: upstream.url,
        UPSTREAM_RESPONSE_TIMEOUT: '800',
        CORS_ENABLED: 'true',
        CORS_ORIGIN: 'https://app.example.com',
        CORS_CREDENTIALS: 'true',
      }),
      { logger: silentLogger(), messaging, local },
    );
    try {
      const s = await openSse(`${gateway.url}/revisions/stream?framing=${framing}`, { 'accept-encoding': 'br, gzip', origin: 'https://app.example.com' });
      expect(s.status).toBe(200);
      expect(s.headers['content-encoding']).toBeUndefined();
      expect(s.headers['access-control-allow-origin']).toBe('https://app.example.com');
      expect(s.headers['access-control-allow-credentials']).toBe('true');
      await s.until((e) => e.length >= 20, 5000); // ~2 s of events: more than the 800 ms response timeout
      const arrived: number[] = [];
      const before = s.events.length;
      await s.until((e) => {
        if (e.length > before) arrived.push(Date.now() - (JSON.parse(e[e.length - 1]!.data) as { sent: number }).sent);
        return e.length >= before + 5;
      });
      expect(Math.max(...arrived)).toBeLessThan(100); // each event as it is written
      const t0 = Date.now();
      await gateway.stop();
      expect(Date.now() - t0).toBeLessThan(2000);
      await s.closed(2000);
    } finally {
      await gateway.stop();
      await messaging.close();
    }
  });
});
