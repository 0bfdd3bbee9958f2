import pg from 'pg';
import { parseTimestamptz, TIMESTAMPTZ } from './parse-timestamptz';

const INT8 = 20;
const parseInt8 = (v: string) => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
};

/**
 * A pg Pool whose bigints come back as numbers (ids are far below 2^53) and whose timestamps are read by
 * parseTimestamptz. A connection is retired after 10 minutes, and with it the statements prepared on it that are no
 * longer used (see StatementNames).
 */
export function createPool(connectionString: string, max = 10): pg.Pool {
  return new pg.Pool({
    connectionString,
    max,
    idleTimeoutMillis: 30_000,
    maxLifetimeSeconds: 600,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8 ? parseInt8
        : oid === TIMESTAMPTZ && format !== 'binary' ? parseTimestamptz
        : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
}
