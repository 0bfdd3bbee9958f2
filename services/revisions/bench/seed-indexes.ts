import type { Client } from 'pg';

/** Where the definitions of the dropped indexes wait until they are built again (a seed stopped midway finds them). */
const PARKED = 'bench_seed_parked_indexes';

/**
 * Runs `fill` with the secondary indexes of `tables` (partitioned parents: their partitions' go with them) dropped,
 * then builds them again, each in one pass over the rows instead of one insert at a time. The definitions are parked
 * in a table first, so a seed stopped midway builds them on its next run (`restoreParkedIndexes`).
 */
export async function withIndexesBuiltAfter(c: Client, tables: readonly string[], fill: () => Promise<void>): Promise<void> {
  await restoreParkedIndexes(c);
  await c.query(
    `CREATE TABLE ${PARKED} AS
    SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i
     WHERE i.indrelid = ANY ($1::regclass[]) AND NOT i.indisprimary AND NOT i.indisunique`,
    [tables],
  );
  const { rows } = await c.query<{ name: string }>(`SELECT name FROM ${PARKED}`);
  for (const { name } of rows) await c.query(`DROP INDEX ${name}`);
  await fill();
  await restoreParkedIndexes(c);
}

/** Builds the indexes a seed parked, if any, and drops their record. */
export async function restoreParkedIndexes(c: Client): Promise<void> {
  if (!(await c.query(`SELECT to_regclass($1) AS t`, [PARKED])).rows[0].t) return;
  const { rows } = await c.query<{ def: string }>(`SELECT def FROM ${PARKED}`);
  // a partitioned parent's definition reads `ON ONLY` (that parent alone): built here for every partition too
  for (const { def } of rows) await c.query(def.replace(/^CREATE INDEX /, 'CREATE INDEX IF NOT EXISTS ').replace(' ON ONLY ', ' ON '));
  await c.query(`DROP TABLE ${PARKED}`);
}
