import { Counter, singleMetric, type Registry } from '@vellum/metrics';

/** `vellum_auth_logins_total{outcome}`: `success` or the error code (lower case) the attempt was refused with. */
export function loginCounter(registry: Registry): (outcome: string) => void {
  const counter = singleMetric(
    registry,
    'vellum_auth_logins_total',
    () => new Counter({ name: 'vellum_auth_logins_total', help: 'Login attempts by outcome', labelNames: ['outcome'] as const, registers: [registry] }),
  );
  return (outcome) => counter.inc({ outcome });
}
