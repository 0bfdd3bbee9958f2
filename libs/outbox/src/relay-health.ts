import type { Pool } from 'pg';
import type { RelayState } from './relay-loop';

export interface RelayHealth {
  status: 'ok' | 'warn' | 'error';
  reason?: string;
  pending?: number;
}

/** Unpublished rows; warn after a failed batch, error after more than three in a row or without the database. */
export async function relayHealth(pool: Pool, state: Pick<RelayState, 'failures' | 'lastError'>): Promise<RelayHealth> {
  try {
    const { rows } = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM "outbox" WHERE "published_at" IS NULL`);
    const pending = Number(rows[0].n);
    if (state.failures > 0) return { status: state.failures > 3 ? 'error' : 'warn', reason: state.lastError, pending };
    return { status: 'ok', pending };
  } catch (err) {
    return { status: 'error', reason: (err as Error).message };
  }
}

/** Unpublished rows and the age of the oldest, seconds (for metrics). */
export async function relayStats(pool: Pool): Promise<{ backlog: number; oldestAgeSeconds: number }> {
  const { rows } = await pool.query<{ n: string; age: number | null }>(
    `SELECT count(*) AS n, extract(epoch FROM now() - min("created_at"))::float8 AS age FROM "outbox" WHERE "published_at" IS NULL`,
  );
  return { backlog: Number(rows[0].n), oldestAgeSeconds: Math.max(0, rows[0].age ?? 0) };
}
