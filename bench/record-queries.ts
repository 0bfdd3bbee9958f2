import pg from 'pg';
import { currentRequestContext } from '@vellum/logger';

export interface Statement {
  text: string;
  values?: unknown[];
}

/**
 * Runs `request` (one HTTP call to the platform running in this process) and returns the SQL statements it sent to
 * `database`, by wrapping pg's Client#query for the duration of the call: what the floor server replays. Only the
 * statements sent within a request's context count: a service's own background work on the same database (the
 * item-events consumer's sweep of pending events) is left out. With `requestId` (the `x-request-id` the call sends),
 * only that request's: an event another request published (a login's audit event) is recorded by the in-process
 * consumer in that request's context, and its transaction landing during the call would otherwise be replayed by the
 * floor on every request. Only for benches.
 */
export async function recordQueries(database: string, request: () => Promise<void>, requestId?: string): Promise<Statement[]> {
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown; connectionParameters?: unknown };
  const original = proto.query;
  const seen: Statement[] = [];
  proto.query = function (this: { connectionParameters?: { database?: string } }, ...args: unknown[]) {
    const config = args[0];
    const ctx = currentRequestContext();
    if (this.connectionParameters?.database === database && ctx && (requestId === undefined || ctx.requestId === requestId)) {
      if (typeof config === 'string') seen.push({ text: config, values: Array.isArray(args[1]) ? args[1] : undefined });
      else if (config && typeof config === 'object' && 'text' in config) {
        const { text, values } = config as Statement;
        seen.push({ text, values });
      }
    }
    return original.apply(this, args);
  };
  try {
    await request();
  } finally {
    proto.query = original;
  }
  return seen;
}
