import { Counter } from 'prom-client';
import { createMetricsRegistry, httpMetrics, observeConsumer, observeOutbox, observePool, singleMetric, startMetricsServer } from './index';

describe('metrics', () => {
  it('a process registry has the default process metrics', async () => {
    const text = await createMetricsRegistry().metrics();
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes /m);
  });

  it('services sharing a registry share one metric and label their series', async () => {
    const registry = createMetricsRegistry();
    httpMetrics(registry, 'auth').observe('GET', '/users/:id', 200, 0.02);
    httpMetrics(registry, 'items').observe('GET', '/items/:collection', 404, 0.2);
    const text = await registry.metrics();
    expect(text).toMatch(/vellum_http_request_duration_seconds_count\{service="auth",method="GET",route="\/users\/:id",status="200"\} 1/);
    expect(text).toMatch(/vellum_http_request_duration_seconds_bucket\{le="0.025",service="auth",method="GET",route="\/users\/:id",status="200"\} 1/);
    expect(text).toMatch(/vellum_http_request_duration_seconds_count\{service="items",method="GET",route="\/items\/:collection",status="404"\} 1/);
    const a = singleMetric(registry, 'x_total', () => new Counter({ name: 'x_total', help: 'x', registers: [registry] }));
    expect(singleMetric(registry, 'x_total', () => new Counter({ name: 'x_total', help: 'x', registers: [registry] }))).toBe(a);
  });

  it('reads pools, outboxes and consumers at scrape time; a removed or failing source leaves no series', async () => {
    const registry = createMetricsRegistry();
    const pool = { totalCount: 5, idleCount: 2, waitingCount: 3 };
    const stopPool = observePool(registry, 'auth', pool);
    observeOutbox(registry, 'auth', async () => ({ backlog: 7, oldestAgeSeconds: 12.5 }));
    observeConsumer(registry, { service: 'revisions', stream: 'ITEMS', consumer: 'revisions' }, async () => {
      throw new Error('nats down');
    });
    let text = await registry.metrics();
    expect(text).toMatch(/vellum_db_pool_connections\{service="auth",pool="main",state="in_use"\} 3/);
    expect(text).toMatch(/vellum_db_pool_waiting\{service="auth",pool="main"\} 3/);
    expect(text).toMatch(/vellum_outbox_backlog\{service="auth"\} 7/);
    expect(text).toMatch(/vellum_outbox_oldest_unpublished_age_seconds\{service="auth"\} 12.5/);
    expect(text).not.toMatch(/vellum_consumer_pending\{/);
    pool.waitingCount = 0;
    expect(await registry.metrics()).toMatch(/vellum_db_pool_waiting\{service="auth",pool="main"\} 0/);
    stopPool();
    text = await registry.metrics();
    expect(text).not.toMatch(/vellum_db_pool_waiting\{/);
  });

  it('serves GET /metrics on its own listener, 404 elsewhere, and refuses a taken port', async () => {
    const registry = createMetricsRegistry();
    const server = await startMetricsServer(registry, 0, '127.0.0.1');
    try {
      const r = await fetch(server.url);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0.0.4/);
      expect(await r.text()).toMatch(/process_cpu_user_seconds_total/);
      expect((await fetch(server.url.replace('/metrics', '/'))).status).toBe(404);
      await expect(startMetricsServer(registry, server.port, '127.0.0.1')).rejects.toThrow(/metrics listener on 127.0.0.1:\d+: .*EADDRINUSE/);
    } finally {
      await server.close();
    }
  });
});
