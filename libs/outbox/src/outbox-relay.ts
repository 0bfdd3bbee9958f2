import { Client, Pool } from 'pg';
import type { Messaging, SettleOutcome } from '@vellum/messaging';
import { SettleTracker } from './settle-tracker';
import { OUTBOX_CHANNEL } from './outbox-table';

/** Where a destination name of the outbox goes. */
export type OutboxDestination =
  | { type: 'queue'; subjects: string[] }
  | { type: 'stream'; subjects: string[] }
  | { type: 'kv' };

export interface RelayLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface OutboxRelayOptions {
  connectionString: string;
  messaging: Messaging;
  /** Destination name (the `destination` column) → how to publish it. */
  destinations: Record<string, OutboxDestination>;
  logger?: RelayLogger;
  /** Polling fallback when no notification arrives (default 1000 ms). */
  pollMs?: number;
  /** Rows per transaction (default 100). */
  batchSize?: number;
  /** Delays after successive failures (the last repeats), default [200, 1000, 5000, 15000]. */
  backoffMs?: number[];
  /** A publish that takes longer counts as failed (default 5000 ms). */
  publishTimeoutMs?: number;
  /** Published rows older than this are deleted (default 7 days). */
  retentionMs?: number;
}

export interface OutboxRelay {
  /** Publish now instead of waiting for the next notification/poll. */
  wake(): void;
  /** Resolves once no unpublished row is left (or rejects after timeoutMs). For tests and drains. */
  idle(timeoutMs?: number): Promise<void>;
  health(): Promise<{ status: 'ok' | 'warn' | 'error'; reason?: string; pending?: number }>;
  /** Unpublished rows and the age of the oldest, seconds (for metrics). */
  stats(): Promise<{ backlog: number; oldestAgeSeconds: number }>;
  /** Stop: publish what is pending (bounded by graceMs), then close the connections. */
  stop(graceMs?: number): Promise<void>;
}

interface Row {
  id: string;
  destination: string;
  subject: string;
  payload: unknown;
  headers: Record<string, string>;
}

const silent: RelayLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      t = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(t));
}

/**
 * The outbox relay: publishes unpublished rows in `seq` order with the row id as message id, marks them
 * published in the same transaction that locked them (`FOR UPDATE SKIP LOCKED`, so replicas never publish a row
 * twice at once; a crash after publish and before commit republishes with the same id, which the broker dedupes).
 * Woken by LISTEN/NOTIFY, with polling as a fallback; retries with backoff while messaging is down.
 */
export async function startOutboxRelay(opts: OutboxRelayOptions): Promise<OutboxRelay> {
  const log = opts.logger ?? silent;
  const pollMs = opts.pollMs ?? 1000;
  const batchSize = opts.batchSize ?? 100;
  const backoff = opts.backoffMs?.length ? opts.backoffMs : [200, 1000, 5000, 15000];
  const publishTimeoutMs = opts.publishTimeoutMs ?? 5000;
  const retentionMs = opts.retentionMs ?? 7 * 86_400_000;
  const pool = new Pool({ connectionString: opts.connectionString, max: 2, application_name: 'vellum-outbox-relay' });
  pool.on('error', (err) => log.warn({ err }, 'outbox relay: idle connection error'));

  type Publisher = (row: Row, onSettled?: (o: SettleOutcome) => void) => Promise<void>;
  const publishers = new Map<string, Promise<Publisher>>();
  const publisherFor = (name: string): Promise<Publisher> => {
    let p = publishers.get(name);
    if (!p) {
      const dest = opts.destinations[name];
      if (!dest) return Promise.reject(new Error(`outbox destination "${name}" is not configured`));
      p = (async (): Promise<Publisher> => {
        if (dest.type === 'kv') {
          const kv = await opts.messaging.keyValue<unknown>(name);
          return (row) => (row.payload === null ? kv.delete(row.subject) : kv.put(row.subject, row.payload));
        }
        const target =
          dest.type === 'queue'
            ? await opts.messaging.workQueue(name, { subjects: dest.subjects })
            : await opts.messaging.eventStream(name, { subjects: dest.subjects });
        return (row, onSettled) => target.publish(row.subject, row.payload, { id: row.id, headers: row.headers, onSettled });
      })();
      p.catch(() => publishers.delete(name));
      publishers.set(name, p);
    }
    return p;
  };

  // Messaging that does not outlive this process (in-process): rows are marked once their consumers finished.
  const settles = !opts.messaging.persistent;
  const tracker = new SettleTracker(pool, () => wake());

  /** One batch in one transaction; returns how many rows were published. Throws after recording a failure. */
  const publishBatch = async (): Promise<number> => {
    await tracker.mark();
    const client = await pool.connect();
    let failure: { id: string; err: Error } | undefined;
    let done: string[] = [];
    const handedOver: string[] = [];
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<Row>(
        `SELECT "id", "destination", "subject", "payload", "headers" FROM "outbox"
          WHERE "published_at" IS NULL AND NOT ("id" = ANY($2::uuid[])) ORDER BY "seq" LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [batchSize, [...tracker.awaiting]],
      );
      for (const row of rows) {
        try {
          const publish = await withTimeout(publisherFor(row.destination), publishTimeoutMs, 'messaging');
          const dest = opts.destinations[row.destination];
          if (settles && dest.type !== 'kv') {
            handedOver.push(row.id);
            await withTimeout(publish(row, tracker.handOver(row.id)), publishTimeoutMs, 'publish');
          } else {
            await withTimeout(publish(row), publishTimeoutMs, 'publish');
            done.push(row.id);
          }
        } catch (err) {
          failure = { id: row.id, err: err as Error };
          break;
        }
      }
      if (done.length) await client.query(`UPDATE "outbox" SET "published_at" = now() WHERE "id" = ANY($1::uuid[])`, [done]);
      if (failure) {
        await client.query(`UPDATE "outbox" SET "attempts" = "attempts" + 1, "last_error" = $2 WHERE "id" = $1`, [
          failure.id,
          failure.err.message.slice(0, 1000),
        ]);
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      done = [];
      throw err;
    } finally {
      client.release();
    }
    if (failure) {
      tracker.failed(failure.id);
      throw failure.err;
    }
    return done.length + handedOver.length;
  };

  // --- wake-ups: LISTEN/NOTIFY, reconnected when lost; polling covers the gaps ---
  let wakeUp: (() => void) | undefined;
  let pendingWake = false;
  const wake = () => {
    pendingWake = true;
    wakeUp?.();
  };
  const waitForWake = (ms: number) =>
    new Promise<void>((resolve) => {
      if (pendingWake) return resolve();
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });

  let stopping = false;
  let listener: Client | undefined;
  const listen = async () => {
    if (stopping) return;
    const c = new Client({ connectionString: opts.connectionString, application_name: 'vellum-outbox-listen' });
    c.on('notification', () => wake());
    c.on('error', (err) => {
      log.warn({ err }, 'outbox relay: LISTEN connection lost, polling until it is back');
      if (listener === c) listener = undefined;
      c.end().catch(() => undefined);
      if (!stopping) setTimeout(() => void listen(), pollMs).unref();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${OUTBOX_CHANNEL}`);
      listener = c;
      if (stopping) await c.end().catch(() => undefined);
      wake();
    } catch (err) {
      log.warn({ err }, 'outbox relay: cannot LISTEN, polling');
      c.end().catch(() => undefined);
      if (!stopping) setTimeout(() => void listen(), pollMs).unref();
    }
  };
  await listen();

  // --- the loop ---
  let failures = 0;
  let lastError: string | undefined;
  let lastCleanup = 0;
  const idleWaiters: (() => void)[] = [];
  let stopDeadline = Infinity;
  const loop = (async () => {
    while (!stopping || Date.now() < stopDeadline) {
      pendingWake = false;
      // a batch that started before stop() may have missed rows committed just before it: drain needs one more
      const drainingPass = stopping;
      // likewise only waiters registered before this pass started can be told "idle" by it
      const idleAsked = idleWaiters.length;
      try {
        const n = await publishBatch();
        failures = 0;
        lastError = undefined;
        if (n === batchSize) continue;
        if (n === 0 && tracker.awaiting.size === 0) {
          for (const w of idleWaiters.splice(0, idleAsked)) w();
          if (drainingPass) break;
        }
        if (Date.now() - lastCleanup > 3_600_000) {
          lastCleanup = Date.now();
          await pool
            .query(`DELETE FROM "outbox" WHERE "published_at" < now() - ($1::bigint * interval '1 millisecond')`, [retentionMs])
            .catch((err) => log.warn({ err }, 'outbox relay: cleanup failed'));
        }
        if (n > 0 || tracker.backlog > 0) continue;
        await waitForWake(stopping ? Math.max(0, Math.min(pollMs, stopDeadline - Date.now())) : pollMs);
      } catch (err) {
        failures++;
        lastError = (err as Error).message;
        const delay = backoff[Math.min(failures - 1, backoff.length - 1)];
        (failures === 1 ? log.warn : log.error).call(log, { err, failures, retryInMs: delay }, 'outbox relay: publish failed');
        if (stopping) break;
        await waitForWake(delay);
        pendingWake = false;
      }
    }
  })();

  return {
    wake,
    idle(timeoutMs = 10_000) {
      return withTimeout(
        new Promise<void>((resolve) => {
          idleWaiters.push(resolve);
          wake();
        }),
        timeoutMs,
        'outbox idle',
      );
    },
    async health() {
      try {
        const { rows } = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM "outbox" WHERE "published_at" IS NULL`);
        const pending = Number(rows[0].n);
        if (failures > 0) return { status: failures > 3 ? 'error' : 'warn', reason: lastError, pending };
        return { status: 'ok', pending };
      } catch (err) {
        return { status: 'error', reason: (err as Error).message };
      }
    },
    async stats() {
      const { rows } = await pool.query<{ n: string; age: number | null }>(
        `SELECT count(*) AS n, extract(epoch FROM now() - min("created_at"))::float8 AS age FROM "outbox" WHERE "published_at" IS NULL`,
      );
      return { backlog: Number(rows[0].n), oldestAgeSeconds: Math.max(0, rows[0].age ?? 0) };
    },
    async stop(graceMs = 5000) {
      if (!stopping) {
        stopping = true;
        stopDeadline = Date.now() + graceMs;
        wake();
      }
      await loop;
      await tracker.mark().catch(() => undefined);
      await listener?.end().catch(() => undefined);
      listener = undefined;
      await pool.end().catch(() => undefined);
    },
  };
}
