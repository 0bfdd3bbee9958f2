import path from 'node:path';
import { Pool } from 'pg';
import { migrate } from '@vellum/db';
import type { Logger } from '@vellum/logger';
import { MAIL_SENT_BUCKET } from '@vellum/mailer';
import type { BucketStore } from '@vellum/messaging';

/** The embedded topology's own database: what its in-process messaging must keep across a crash. */
export const MESSAGING_DATABASE = 'vellum_messaging';

/**
 * Buckets of the in-process messaging kept in that database (table `key_value`). The mailer's sent-job ids: the
 * auth outbox republishes every mail job not yet marked after a crash, and the mailer skips the ones it finds
 * here, so a mail the SMTP server accepted and the mailer recorded is not sent again. They are kept for the
 * mailer's EMAIL_SENT_IDS_TTL (the bucket's maximum age), then pruned.
 */
const DURABLE_BUCKETS: readonly string[] = [MAIL_SENT_BUCKET];

interface DurableBuckets {
  /** Per bucket name, for `createInProcessMessaging({ stores })`. */
  stores: Record<string, BucketStore>;
  close(): Promise<void>;
}

/**
 * Applies the table's migration and returns a store per durable bucket. A put is one committed INSERT … ON
 * CONFLICT (the server's WAL flushed: `synchronous_commit` on, as the embedded PostgreSQL runs) before it resolves.
 */
export async function openDurableBuckets(url: string, logger: Logger): Promise<DurableBuckets> {
  await migrate({ connectionString: url, migrationsDir: path.join(__dirname, '../migrations'), log: (m) => logger.debug(m) });
  const pool = new Pool({ connectionString: url, max: 2, application_name: 'vellum-durable-buckets' });
  // an idle connection the server ended (its shutdown on Ctrl-C, a restart): the pool drops it and the next query
  // connects again, so nothing to warn about (the failing query itself rejects); the client object is not logged
  pool.on('error', (err) => logger.debug({ message: err.message, code: (err as { code?: string }).code }, 'durable buckets: idle connection ended'));
  const store = (bucket: string): BucketStore => ({
    async load() {
      const { rows } = await pool.query<{ key: string; value: string; at: string }>(
        `SELECT "key", "value", (extract(epoch FROM "updated_at") * 1000)::bigint AS "at" FROM "key_value" WHERE "bucket" = $1 ORDER BY "updated_at"`,
        [bucket],
      );
      return rows.map((r) => ({ key: r.key, value: r.value, at: Number(r.at) }));
    },
    async put(key, value) {
      await pool.query(
        `INSERT INTO "key_value" ("bucket", "key", "value") VALUES ($1, $2, $3)
         ON CONFLICT ("bucket", "key") DO UPDATE SET "value" = EXCLUDED."value", "updated_at" = now()`,
        [bucket, key, value],
      );
    },
    async delete(key) {
      await pool.query(`DELETE FROM "key_value" WHERE "bucket" = $1 AND "key" = $2`, [bucket, key]);
    },
    async prune(maxAgeMs) {
      await pool.query(`DELETE FROM "key_value" WHERE "bucket" = $1 AND "updated_at" <= now() - make_interval(secs => $2)`, [bucket, maxAgeMs / 1000]);
    },
  });
  return { stores: Object.fromEntries(DURABLE_BUCKETS.map((b) => [b, store(b)])), close: () => pool.end() };
}
