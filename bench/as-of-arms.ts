// The single-item reads the as-of bench alternates on one seeded database: the repository's statement, and the
// statements before it — swapped in by replacing asOfRepository.stateAt in the bench's own process (the service
// runs in it), so every arm goes through the same HTTP route, reader and pool.
import type { Client, Pool } from 'pg';
import { asOfRepository, type StateRow } from '../services/revisions/src/data/as-of.repository';

/**
 * The repository's statement (as-of.repository.ts) spelled so that revisions_item_state_idx cannot serve it (its
 * predicate, `version IS NULL`, is not proven by this spelling): the plan before that index (2026-12-05) — one
 * descent of (collection, item, timestamp) per partition, the rows of the newest time read and sorted by id.
 */
const BEFORE_SQL = `SELECT id, collection, item, data, timestamp FROM revisions
  WHERE collection = $1 AND item = $2 AND timestamp <= $3 AND (version || '') IS NULL ORDER BY timestamp DESC, id DESC LIMIT 1`;

/** An alternative measured and not kept: the id by index-only descents of the partial index, then the row by id. */
const ID_LOOKUP_SQL = `SELECT id, collection, item, data, timestamp FROM revisions
  WHERE id = (SELECT id FROM revisions WHERE collection = $1 AND item = $2 AND timestamp <= $3 AND version IS NULL
              ORDER BY timestamp DESC, id DESC LIMIT 1)`;

export interface Arm {
  name: string;
  /** The statement's text, for EXPLAIN; undefined: the repository's (read from a call). */
  sql?: string;
  stateAt: typeof asOfRepository.stateAt;
}

const armOf = (name: string, statement: string, sql: string): Arm => ({
  name,
  sql,
  stateAt: async (pool: Pool, collection: string, item: string, at: Date) =>
    (await pool.query<StateRow>({ name: statement, text: sql, values: [collection, item, at] })).rows[0],
});

const repository = asOfRepository.stateAt;

/** The arms, the repository's first; AS_OF_ARMS (comma-separated names: new, before, id-lookup) picks some. */
export function stateAtArms(pick = process.env.AS_OF_ARMS): Arm[] {
  const all: Record<string, Arm> = {
    new: { name: 'new: on revisions_item_state_idx', stateAt: repository },
    before: armOf('before: on (collection, item, timestamp)', 'bench_as_of_before', BEFORE_SQL),
    'id-lookup': armOf('id lookup: index-only descents, then the row by id', 'bench_as_of_id_lookup', ID_LOOKUP_SQL),
  };
  return (pick ? pick.split(',') : Object.keys(all)).map((k) => {
    const arm = all[k.trim()];
    if (!arm) throw new Error(`AS_OF_ARMS: no arm ${k}`);
    return arm;
  });
}

/** Serves the reads of one arm from now on. */
export const useArm = (arm: Arm): void => {
  asOfRepository.stateAt = arm.stateAt;
};

/** Back to the repository's statement. */
export const restoreArm = (): void => {
  asOfRepository.stateAt = repository;
};

/** The arm's statement text: its own, or the repository's as one call sends it. */
export async function sqlOf(arm: Arm, db: Client): Promise<string> {
  if (arm.sql) return arm.sql;
  let text = '';
  const spy = { query: (q: { text: string }) => ((text = q.text), db.query(q as never)) } as unknown as Pool;
  await repository(spy, 'c0', '0', new Date());
  return text;
}

export interface Buffers {
  /** Mean shared buffers touched (hit + read) per read, and of those read from outside shared_buffers. */
  touched: number;
  read: number;
  /** Mean execution time in PostgreSQL, ms. */
  execMs: number;
}

/** EXPLAIN (ANALYZE, BUFFERS) of `n` random reads of `sql`: their mean buffers and execution time. */
export async function buffersOf(db: Client, sql: string, n: number, args: () => [string, string, string]): Promise<Buffers> {
  let touched = 0;
  let read = 0;
  let execMs = 0;
  for (let i = 0; i < n; i++) {
    const { rows } = await db.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, args());
    const top = rows[0]['QUERY PLAN'][0];
    touched += top.Plan['Shared Hit Blocks'] + top.Plan['Shared Read Blocks'];
    read += top.Plan['Shared Read Blocks'];
    execMs += top['Execution Time'];
  }
  return { touched: touched / n, read: read / n, execMs: execMs / n };
}
