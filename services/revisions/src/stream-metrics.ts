import { sampledGauge, type Registry } from '@vellum/metrics';
import type { RevisionFeed } from './domain/revision-feed';
import type { StreamRegistry } from './http/stream.routes';

/**
 * The revision streams' series: open streams, and the feed's database reads and revisions handed out (their ratio
 * is the reads per revision, whatever the number of streams). Returns the function that removes them.
 */
export function observeStreams(metrics: Registry, feed: RevisionFeed, streams: StreamRegistry): () => void {
  const labels = { service: 'revisions' };
  const removers = [
    sampledGauge(metrics, 'vellum_revision_streams', 'Open GET /revisions/stream responses', ['service'])(labels, () => streams.size),
    sampledGauge(metrics, 'vellum_revision_feed_reads', 'Database reads of the revision feed since the start (one per recorded batch)', ['service'])(
      labels,
      () => feed.stats.reads,
    ),
    sampledGauge(metrics, 'vellum_revision_feed_revisions', 'Revisions the feed handed to the streams since the start', ['service'])(
      labels,
      () => feed.stats.revisions,
    ),
  ];
  return () => removers.forEach((r) => r());
}
