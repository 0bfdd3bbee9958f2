import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The metrics registry of one process, with prom-client's default process metrics (CPU, memory, heap, event-loop
 * lag, GC, handles). In the embedded topology every service of the process shares it; a `service` label tells
 * their series apart.
 */
export function createMetricsRegistry(labels: Record<string, string> = {}): Registry {
  const registry = new Registry();
  if (Object.keys(labels).length) registry.setDefaultLabels(labels);
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  return registry;
}

/**
 * The metric `name` of `registry`, created by `make` the first time: services sharing one registry (the embedded
 * topology) share one metric and label their series.
 */
export function singleMetric<M>(registry: Registry, name: string, make: () => M): M {
  return (registry.getSingleMetric(name) as M | undefined) ?? make();
}
