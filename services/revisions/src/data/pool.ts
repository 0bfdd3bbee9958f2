import pg from 'pg';
import { poolTypes } from './pool-types';

/**
 * PostgreSQL's price of a page read out of order, relative to one read in order (its own default: 4, a spinning
 * disk's). The history's hot pages sit in memory or on SSD, where the two cost the same: at 4 the planner walks the
 * primary key and drops every other collection's row rather than read a collection's rows from its (collection, id)
 * or (id, collection) index (a role reading a small collection reads
 * many rows for one page). 1.1 is the
 * usual setting for SSD (PostgreSQL's docs: lower it when the data is cached).
 */
export const DEFAULT_RANDOM_PAGE_COST = 1.1;

export interface PoolSettings {
  /** `random_page_cost` set on each connection; null: the database's own setting. */
  randomPageCost?: number | null;
}

/**
 * A pg Pool whose bigints come back as numbers (ids are far below 2^53) and whose timestamps are read by
 * parseTimestamptz. A connection is retired after 10 minutes, and with it the statements prepared on it that are no
 * longer used (see StatementNames). Each new connection first sets the planner's `random_page_cost`, before the pool
 * hands it out, so every statement on it is planned with it (a pooler in session mode keeps it).
 */
export function createPool(connectionString: string, max = 10, settings: PoolSettings = {}): pg.Pool {
  const cost = settings.randomPageCost === undefined ? DEFAULT_RANDOM_PAGE_COST : settings.randomPageCost;
  if (cost !== null && !(Number.isFinite(cost) && cost > 0)) throw new RangeError(`random_page_cost must be a positive number, not ${cost}`);
  return new pg.Pool({
    connectionString,
    max,
    idleTimeoutMillis: 30_000,
    maxLifetimeSeconds: 600,
    // awaited by the pool before it hands the new connection out (its failure fails that acquire)
    onConnect: cost === null ? undefined : async (client) => void (await client.query(`SET random_page_cost = ${cost}`)),
    types: poolTypes,
    // statements sent without waiting for the one before (a transaction's BEGIN goes with its first statement)
    pipeline: true,
  });
}
