import { createHash } from 'node:crypto';
import { Pool, types, type PoolClient, type QueryConfig } from 'pg';
import { markQuietOutbox, QUIET_OUTBOX_OPTION } from '@vellum/outbox';
import { CONTENT_SCHEMA } from './content-schema';

const OID = { INT8: 20, DATE: 1082, TIMESTAMP: 1114, TIMESTAMPTZ: 1184 } as const;

/**
 * Values as the API writes them: bigint as a number when it is safe (else a string), numeric as a string
 * (exact), date as `YYYY-MM-DD`, timestamp without time zone as `YYYY-MM-DDTHH:MM:SS[.fff]` (never shifted by the
 * process time zone), timestamptz as ISO 8601 UTC.
 */
const itemTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    switch (oid) {
      case OID.INT8:
        return (v: string) => (Number.isSafeInteger(Number(v)) ? Number(v) : v);
      case OID.DATE:
        return (v: string) => v;
      case OID.TIMESTAMP:
        return (v: string) => v.replace(' ', 'T');
      case OID.TIMESTAMPTZ:
        return (v: string) => new Date(v).toISOString();
      default:
        return types.getTypeParser(oid, format);
    }
  },
};

/**
 * The pool for the collections' own tables (created at run time, so outside Prisma). The search path finds
 * them by bare name after the service's own tables (whose names are reserved), as the query planner needs.
 */
export function createItemsPool(connectionString: string, max = 10): Pool {
  const pool = new Pool({
    connectionString,
    max,
    application_name: 'vellum-items',
    // statements sent without waiting for the one before (a transaction's BEGIN goes with its first statement)
    pipeline: true,
    // quiet outbox inserts: no NOTIFY (PostgreSQL serialises the commits that notify); enqueueOutbox wakes the relay
    options: `-c search_path=public,${CONTENT_SCHEMA} -c TimeZone=UTC ${QUIET_OUTBOX_OPTION}`,
    types: itemTypes,
  });
  pool.on('connect', markQuietOutbox);
  return pool;
}

export type Queryable = Pick<PoolClient, 'query'>;


/** Distinct statement texts given a name so far; past the cap, texts go unnamed (a connection keeps every name it prepared). */
const names = new Map<string, string>();
const MAX_NAMED = 2000;

/**
 * A statement prepared once per connection and reused (PostgreSQL parses and plans it once): its name is a hash
 * of its text and `shape` (what `*` stands for: a collection's columns, so a table dropped and created again with
 * other columns never meets a plan of the old one), so every statement built the same way shares one. Past
 * MAX_NAMED distinct ones, statements run unnamed.
 */
export function named(text: string, values: unknown[], shape = ''): QueryConfig {
  const key = `${shape}\0${text}`;
  let name = names.get(key);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `items_${createHash('sha1').update(key).digest('base64url')}`;
    names.set(key, name);
  }
  return name === undefined ? { text, values } : { name, text, values };
}
