import { Pool, types, type PoolClient } from 'pg';
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
  return new Pool({
    connectionString,
    max,
    application_name: 'vellum-items',
    options: `-c search_path=public,${CONTENT_SCHEMA} -c TimeZone=UTC`,
    types: itemTypes,
  });
}

export type Queryable = Pick<PoolClient, 'query'>;

