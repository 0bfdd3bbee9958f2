export { Counter, Gauge, Histogram, Registry } from 'prom-client';
export { createMetricsRegistry, singleMetric } from './registry';
export { sampledGauge, type Sample } from './sampled-gauge';
export { httpMetrics, HTTP_DURATION_BUCKETS, type HttpMetrics } from './http-metrics';
export { observePool, type PoolLike } from './pool-metrics';
export { observeOutbox, observeConsumer, type OutboxStats, type ConsumerStats } from './work-metrics';
export { startMetricsServer, type MetricsServer } from './metrics-server';
