export { startTracing, stopTracing, startSpan, tracingEnabled, type ActiveSpan, type TracingOptions } from './tracing';
export { parseTraceparent, formatTraceparent, childTraceparent, type TraceParent } from './traceparent';
