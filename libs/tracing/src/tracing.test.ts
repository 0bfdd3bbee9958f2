import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { childTraceparent, parseTraceparent, startSpan, startTracing, stopTracing, tracingEnabled } from './index';

describe('traceparent', () => {
  it('continues a valid caller trace with a new span id, starts a sampled one otherwise', () => {
    const incoming = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const next = parseTraceparent(childTraceparent(incoming))!;
    expect(next.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(next.spanId).not.toBe('00f067aa0ba902b7');
    for (const bad of [undefined, 'nonsense', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`, 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01']) {
      const fresh = parseTraceparent(childTraceparent(bad))!;
      expect(fresh.flags).toBe('01');
      expect(fresh.traceId).not.toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    }
  });
});

describe('tracing', () => {
  it('is off without an endpoint: no OpenTelemetry SDK module is loaded, spans only carry the traceparent', async () => {
    expect(await startTracing({ serviceName: 't' })).toBe(false);
    expect(tracingEnabled()).toBe(false);
    const span = startSpan('GET x', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    expect(parseTraceparent(span.traceparent)?.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    span.end();
    expect(Object.keys(require.cache).filter((k) => k.includes('@opentelemetry/sdk-trace-base'))).toEqual([]);
  });

  it('exports spans over OTLP/HTTP to the endpoint, under the caller’s trace id', async () => {
    const bodies: { url?: string; body: string }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => (bodies.push({ url: req.url, body }), res.writeHead(200).end('{}')));
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    try {
      const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
      expect(await startTracing({ serviceName: 'unit', endpoint, exportDelayMs: 50 })).toBe(true);
      const span = startSpan('GET /x', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', { 'vellum.service': 'unit' });
      expect(parseTraceparent(span.traceparent)?.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
      span.end({ 'http.response.status_code': 200 });
      await stopTracing(); // flushes
      expect(bodies.map((b) => b.url)).toContain('/v1/traces');
      const sent = JSON.parse(bodies.find((b) => b.url === '/v1/traces')!.body);
      const s = sent.resourceSpans[0].scopeSpans[0].spans[0];
      expect(s).toMatchObject({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentSpanId: '00f067aa0ba902b7', name: 'GET /x' });
      expect(JSON.stringify(sent.resourceSpans[0].resource)).toContain('"unit"');
    } finally {
      await stopTracing();
      receiver.close();
    }
  });
});
