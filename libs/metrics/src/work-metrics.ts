import type { Registry } from 'prom-client';
import { sampledGauge } from './sampled-gauge';

/** One read shared by the gauges of a scrape (they are collected together). */
function shared<T>(read: () => Promise<T>, ttlMs = 500): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!last || Date.now() - last.at > ttlMs) {
      last = { at: Date.now(), value: read() };
      last.value.catch(() => (last = undefined));
    }
    return last.value;
  };
}

export interface OutboxStats {
  /** Rows not yet published. */
  backlog: number;
  /** Age of the oldest unpublished row, seconds (0 when none). */
  oldestAgeSeconds: number;
}

/** `vellum_outbox_backlog{service}` and `vellum_outbox_oldest_unpublished_age_seconds{service}`. */
export function observeOutbox(registry: Registry, service: string, stats: () => Promise<OutboxStats>): () => void {
  const read = shared(stats);
  const backlog = sampledGauge(registry, 'vellum_outbox_backlog', 'Outbox rows not yet published', ['service']);
  const age = sampledGauge(registry, 'vellum_outbox_oldest_unpublished_age_seconds', 'Age of the oldest unpublished outbox row', ['service']);
  const stops = [backlog({ service }, async () => (await read()).backlog), age({ service }, async () => (await read()).oldestAgeSeconds)];
  return () => stops.forEach((s) => s());
}

export interface ConsumerStats {
  /** Messages of the stream the group has not been given yet. */
  pending: number;
  /** Delivered, not yet acknowledged. */
  ackPending: number;
}

/** `vellum_consumer_pending{service,stream,consumer}` (lag) and `vellum_consumer_ack_pending{…}`. */
export function observeConsumer(
  registry: Registry,
  labels: { service: string; stream: string; consumer: string },
  stats: () => Promise<ConsumerStats>,
): () => void {
  const read = shared(stats);
  const names = ['service', 'stream', 'consumer'];
  const pending = sampledGauge(registry, 'vellum_consumer_pending', 'Messages waiting for the consumer group (lag)', names);
  const ack = sampledGauge(registry, 'vellum_consumer_ack_pending', 'Messages delivered to the consumer group and not yet acknowledged', names);
  const stops = [pending(labels, async () => (await read()).pending), ack(labels, async () => (await read()).ackPending)];
  return () => stops.forEach((s) => s());
}
