import { Client } from 'pg';
import { DEAD_LETTER_PREFIX, OUTBOX_CHANNEL } from '@vellum/outbox';
import type { DeadLetterSource } from './dead-letter-source';

/**
 * Embedded topology (in-process messaging): a message a consumer gave up on is kept in its producer's outbox,
 * marked `last_error = 'dead letter: <consumer>: <reason>'`. Replay = unmark it: the running relay publishes it again.
 */
export async function outboxDeadLetters(databases: Record<string, string>): Promise<DeadLetterSource> {
  const clients = Object.entries(databases).map(([where, url]) => ({ where, db: new Client({ connectionString: url }) }));
  await Promise.all(clients.map((c) => c.db.connect()));
  return {
    describe: `the outbox tables of ${clients.map((c) => c.where).join(', ')} (rows whose last_error starts with "${DEAD_LETTER_PREFIX}")`,
    async list() {
      const rows = await Promise.all(
        clients.map(async ({ where, db }) => {
          const { rows: r } = await db.query<{ id: string; subject: string; at: Date; last_error: string; attempts: number }>(
            `SELECT id, subject, COALESCE(published_at, created_at) AS at, last_error, attempts FROM outbox
              WHERE last_error LIKE $1 ORDER BY seq`,
            [`${DEAD_LETTER_PREFIX}%`],
          );
          return r.map((x) => {
            const [durable, ...reason] = x.last_error.slice(DEAD_LETTER_PREFIX.length).split(': ');
            return { where, id: x.id, subject: x.subject, at: x.at.toISOString(), reason: reason.join(': '), durable };
          });
        }),
      );
      return rows.flat().sort((a, b) => a.at.localeCompare(b.at));
    },
    async replay(id) {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
      for (const { db } of clients) {
        const { rowCount } = await db.query(
          `UPDATE outbox SET published_at = NULL, last_error = NULL, attempts = 0 WHERE id = $1::uuid AND last_error LIKE $2`,
          [id, `${DEAD_LETTER_PREFIX}%`],
        );
        if (rowCount) {
          await db.query(`SELECT pg_notify($1, '')`, [OUTBOX_CHANNEL]);
          return true;
        }
      }
      return false;
    },
    close: async () => void (await Promise.all(clients.map((c) => c.db.end()))),
  };
}
