import type { Pool } from 'pg';
import type { Sql } from '@vellum/query';
import { isoTimestampTypes } from './pool-types';
import { StatementNames } from './statement-names';

/** A statement read with `rowMode: 'array'`: its rows go only to the plan's serializers (or shape), never to a Date's user. */
type ArrayStatement = Sql & { rowMode: 'array'; types: typeof isoTimestampTypes };

/**
 * The statement read with `rowMode: 'array'` and its timestamps as the API's ISO text (isoTimestampTypes: no Date
 * made and written back per value). Kept per statement object (a WeakMap: it goes with the statement; a cached plan
 * and StatementNames keep theirs, so a repeated list makes none).
 */
const arrayStatements = new WeakMap<Sql, ArrayStatement>();
export function arrayMode(sql: Sql): ArrayStatement {
  let s = arrayStatements.get(sql);
  if (!s) arrayStatements.set(sql, (s = { ...sql, rowMode: 'array', types: isoTimestampTypes }));
  return s;
}

/** Rows as arrays and pg's result fields (their names, in order). */
export interface ArrayRows {
  rows: unknown[][];
  fields: readonly { name: string }[];
}

/**
 * How the revisions service's reads reach PostgreSQL: every statement through the one naming policy (StatementNames:
 * prepared per connection once its text repeats), as objects or as arrays.
 */
export class StatementRunner {
  /** The one statement-naming mechanism of the read path (bound and eviction: statement-names.ts). */
  private readonly names = new StatementNames();

  constructor(private readonly pool: Pool) {}

  /** The rows as objects. */
  async rows<R extends Record<string, unknown> = Record<string, unknown>>(sql: Sql): Promise<R[]> {
    return (await this.pool.query<R>(this.names.named(sql))).rows;
  }

  /** The rows as arrays over `fields`, timestamps as ISO text. */
  async arrays(sql: Sql): Promise<ArrayRows> {
    const r = await this.pool.query(arrayMode(this.names.named(sql)));
    return { rows: r.rows as unknown as unknown[][], fields: r.fields };
  }
}
