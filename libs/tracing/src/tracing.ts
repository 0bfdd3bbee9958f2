import { childTraceparent } from './traceparent';

/** A span in progress: its traceparent goes to downstream calls and messages; end() records it. */
export interface ActiveSpan {
  traceparent: string;
  end(attributes?: Record<string, string | number>, error?: boolean): void;
}

export interface TracingOptions {
  /** OTLP/HTTP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT); unset: no export, no SDK loaded. */
  endpoint?: string;
  /** resource `service.name` */
  serviceName: string;
  /** Export batching delay, ms (default 1000). */
  exportDelayMs?: number;
}

interface Exporter {
  start(name: string, kind: 'server' | 'consumer', parent: string | undefined, attributes: Record<string, string | number>): ActiveSpan;
  shutdown(): Promise<void>;
}

let exporter: Exporter | undefined;

/**
 * Turn span export on for this process when `endpoint` is set: the OpenTelemetry SDK is imported only then (no
 * cost when off). Idempotent; returns whether tracing is on.
 */
export async function startTracing(opts: TracingOptions): Promise<boolean> {
  if (!opts.endpoint || exporter) return Boolean(exporter);
  // A plain require, run only here: the SDK's modules are never loaded while tracing is off.
  const { createOtelExporter } = require('./otel-exporter') as typeof import('./otel-exporter');
  exporter = createOtelExporter({ ...opts, endpoint: opts.endpoint });
  return true;
}

/** Flush and stop the exporter (process stop). */
export async function stopTracing(): Promise<void> {
  const e = exporter;
  exporter = undefined;
  await e?.shutdown();
}

export const tracingEnabled = (): boolean => exporter !== undefined;

/**
 * A span continuing `incoming` (a W3C traceparent, or none). Without an exporter only the traceparent is made
 * (the caller's trace id, a new span id), so traces still join across processes.
 */
export function startSpan(
  name: string,
  incoming: string | string[] | undefined,
  attributes: Record<string, string | number> = {},
  kind: 'server' | 'consumer' = 'server',
): ActiveSpan {
  if (exporter) return exporter.start(name, kind, Array.isArray(incoming) ? incoming[0] : incoming, attributes);
  return { traceparent: childTraceparent(incoming), end: noEnd };
}

const noEnd = (): void => undefined;

/** For the exporter module. */
export type { Exporter };
