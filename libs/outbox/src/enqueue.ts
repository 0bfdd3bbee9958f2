import { randomUUID } from 'node:crypto';
import { afterCommit, settleAtCommit } from '@vellum/db';
import { propagationHeaders } from '@vellum/logger';
import { hasLocalRelay, isQuietOutbox, wakeLocalRelays } from './local-wake';
import { OUTBOX_CHANNEL } from './outbox-table';
import { OUTBOX_INSERT } from './statement-insert';

/** A message to publish once the caller's transaction commits. */
export interface OutboxMessage {
  /** A destination name the relay knows (e.g. 'MAIL', 'ITEMS', a KV bucket). */
  destination: string;
  /** Subject for streams and queues; the key for a KV bucket. */
  subject: string;
  /** JSON payload; for a KV destination `null` deletes the key. */
  payload: unknown;
  /** Extra headers; the current request's x-request-id / traceparent are added automatically. */
  headers?: Record<string, string>;
  /** Message id (dedupe key); a uuid is generated when absent. */
  id?: string;
}

/** A Prisma client or interactive transaction (`tx`). */
export interface PrismaLike {
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<number>;
}
/** A `pg` Client/PoolClient inside BEGIN … COMMIT (`database`: the one it is connected to, as pg's clients say). */
export interface PgLike {
  query(config: { name: string; text: string; values: unknown[] }): PromiseLike<unknown>;
  readonly database?: string;
}

const isPrisma = (db: PrismaLike | PgLike): db is PrismaLike => typeof (db as PrismaLike).$executeRaw === 'function';

/** An `outbox` row's values, as the relay reads them (`payload` and `headers` as JSON text for `::jsonb`). */
export interface OutboxRow {
  id: string;
  destination: string;
  subject: string;
  payload: string | null;
  headers: string;
}

/**
 * The row for one message: a generated id when it has none, the payload as JSON (`null` deletes a KV key), and
 * the headers with the current request's x-request-id / traceparent, which travel with it to its consumers.
 * For callers that write the row inside a statement of their own (e.g. one data-modifying CTE); use
 * `enqueueOutbox` otherwise.
 */
export function outboxRow(m: OutboxMessage): OutboxRow {
  return {
    id: m.id ?? randomUUID(),
    destination: m.destination,
    subject: m.subject,
    payload: m.payload === undefined || m.payload === null ? null : JSON.stringify(m.payload),
    headers: JSON.stringify({ ...propagationHeaders(), ...m.headers }),
  };
}

const INSERT_ONE = {
  name: 'vellum_outbox_insert',
  text: `${OUTBOX_INSERT} VALUES ($1::uuid, $2, $3, $4::jsonb, $5::jsonb)`,
};
// several rows in one statement, inserted (and so numbered by `seq`) in the order given
const INSERT_MANY = {
  name: 'vellum_outbox_insert_many',
  text: `${OUTBOX_INSERT}
    SELECT i, d, s, p, h FROM unnest($1::uuid[], $2::text[], $3::text[], $4::jsonb[], $5::jsonb[]) WITH ORDINALITY AS m(i, d, s, p, h, o) ORDER BY o`,
};

/**
 * Wakes the relays listening on the database (LISTEN/NOTIFY), delivered at the transaction's commit: for a connection
 * whose inserts do not notify (markQuietOutbox) when no relay of this process takes the wake-up.
 */
const NOTIFY = { name: 'vellum_outbox_notify', text: `SELECT pg_notify('${OUTBOX_CHANNEL}', '')`, values: [] };

/**
 * Insert messages into the outbox inside the caller's transaction: they are published if and only if it commits.
 * Returns the message ids. On a `pg` connection: one prepared statement whatever the number of messages; inside
 * `inTransaction` it is answered at COMMIT (`settleAtCommit`: on a pipelined connection COMMIT goes right behind it,
 * and its failure still fails the transaction). Relays are woken by the table's trigger (NOTIFY), or, on a quiet
 * connection (local-wake.ts), by this call: this process's relay once the transaction commits, else a NOTIFY.
 */
export async function enqueueOutbox(db: PrismaLike | PgLike, messages: OutboxMessage | OutboxMessage[]): Promise<string[]> {
  const rows = (Array.isArray(messages) ? messages : [messages]).map(outboxRow);
  if (rows.length === 0) return [];
  if (!isPrisma(db)) {
    const column = (k: keyof OutboxRow) => rows.map((r) => r[k]);
    const { id, destination, subject, payload, headers } = rows[0]!;
    await settleAtCommit(
      db,
      rows.length === 1
        ? db.query({ ...INSERT_ONE, values: [id, destination, subject, payload, headers] })
        : db.query({ ...INSERT_MANY, values: [column('id'), column('destination'), column('subject'), column('payload'), column('headers')] }),
    );
    if (isQuietOutbox(db)) {
      const database = db.database;
      const local = database !== undefined && hasLocalRelay(database) && afterCommit(db, () => wakeLocalRelays(database));
      if (!local) await settleAtCommit(db, db.query(NOTIFY));
    }
    return rows.map((r) => r.id);
  }
  for (const { id, destination, subject, payload, headers } of rows) {
    await db.$executeRaw`INSERT INTO "outbox" ("id", "destination", "subject", "payload", "headers")
      VALUES (${id}::uuid, ${destination}, ${subject}, ${payload}::jsonb, ${headers}::jsonb)`;
  }
  return rows.map((r) => r.id);
}
