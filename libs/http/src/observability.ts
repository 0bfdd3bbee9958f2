import { createMetricsRegistry, startMetricsServer, type MetricsServer, type Registry } from '@vellum/metrics';
import { startTracing, stopTracing } from '@vellum/tracing';

/** The observability settings every process reads (its config.ts declares them). */
export interface ObservabilityConfig {
  METRICS_ENABLED: boolean;
  METRICS_PORT: number;
  METRICS_HOST: string;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
}

export interface ProcessObservability {
  /** The process's metrics registry (default process metrics included); services add theirs. */
  registry: Registry;
  metrics?: MetricsServer;
  /** Close the metrics listener and flush the traces. */
  stop(): Promise<void>;
}

/**
 * What the main of a process starts first: the metrics registry and its own listener (METRICS_PORT, on by
 * default) and, with OTEL_EXPORTER_OTLP_ENDPOINT set, span export.
 */
export async function startObservability(
  service: string,
  config: ObservabilityConfig,
  logger: { info(obj: object, msg?: string): void },
): Promise<ProcessObservability> {
  const registry = createMetricsRegistry();
  const metrics = config.METRICS_ENABLED ? await startMetricsServer(registry, config.METRICS_PORT, config.METRICS_HOST) : undefined;
  if (metrics) logger.info({ url: metrics.url }, 'metrics listening');
  if (await startTracing({ endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: service }))
    logger.info({ endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT }, 'exporting traces (OTLP/HTTP)');
  return {
    registry,
    metrics,
    async stop() {
      await metrics?.close();
      await stopTracing();
    },
  };
}
