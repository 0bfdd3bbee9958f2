// Loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set (see tracing.ts).
import { context, SpanKind, SpanStatusCode, trace, type Context } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Exporter, TracingOptions } from './tracing';

const propagator = new W3CTraceContextPropagator();
const getter = { get: (c: Record<string, string>, k: string) => c[k], keys: (c: Record<string, string>) => Object.keys(c) };
const setter = { set: (c: Record<string, string>, k: string, v: string) => void (c[k] = v) };

/** OTLP/HTTP: `<endpoint>/v1/traces` as the OTEL_EXPORTER_OTLP_ENDPOINT convention says. */
export function createOtelExporter(opts: TracingOptions & { endpoint: string }): Exporter {
  const url = `${opts.endpoint.replace(/\/$/, '')}/v1/traces`;
  const provider = new BasicTracerProvider({
    resource: new Resource({ 'service.name': opts.serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }), { scheduledDelayMillis: opts.exportDelayMs ?? 1000 })],
  });
  const tracer = provider.getTracer('vellum');
  return {
    start(name, kind, parent, attributes) {
      const parentCtx: Context = parent ? propagator.extract(context.active(), { traceparent: parent }, getter) : context.active();
      const span = tracer.startSpan(name, { kind: kind === 'server' ? SpanKind.SERVER : SpanKind.CONSUMER, attributes }, parentCtx);
      const carrier: Record<string, string> = {};
      propagator.inject(trace.setSpan(parentCtx, span), carrier, setter);
      return {
        traceparent: carrier.traceparent,
        end(more = {}, error = false) {
          span.setAttributes(more);
          if (error) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    shutdown: () => provider.shutdown(),
  };
}
