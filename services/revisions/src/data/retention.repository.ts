import type { PoolClient } from 'pg';
import { addBlockCounts, addCounts, type CountedEntity } from './record-counts.repository';
import { coverIds } from './partitions.repository';

/** One pruned or imported row: its JSON (every column, as `to_jsonb` gives it), id and collection. */
export interface RetainedRow {
  id: number;
  collection: string;
  /** The row as JSON text, one NDJSON line of an archive. */
  json: string;
}

/**
 * Revisions older than the cutoff that are not among their item's newest `keepLast` live ones (≥ 1, so an item's
 * newest live revision always stays; saves to a version are not counted) nor saves to a content version (`version` set: always kept), from id `afterId` on, at most `limit`: deleted, returned, and counted out of
 * record_counts and revision_blocks — all in the caller's transaction. The revisions whose parent goes lose the link
 * (what ON DELETE SET NULL did before the table was partitioned).
 */
const PRUNE_REVISIONS = `
WITH doomed AS (
  SELECT r.id FROM revisions r
   WHERE r.id > $1 AND r.id <= $2 AND r.timestamp < $3 AND r.version IS NULL
     AND r.id < COALESCE((SELECT n.id FROM revisions n WHERE n.collection = r.collection AND n.item = r.item AND n.version IS NULL
                           ORDER BY n.id DESC OFFSET $4 - 1 LIMIT 1), 0)
   ORDER BY r.id LIMIT $5
),
gone AS (
  DELETE FROM revisions r USING doomed WHERE r.id = doomed.id
  RETURNING r.id, r.collection, to_jsonb(r)::text AS json
),
orphans AS (
  UPDATE revisions c SET parent = NULL
   WHERE c.parent IN (SELECT id FROM doomed) AND c.id NOT IN (SELECT id FROM doomed)
  RETURNING 1
)
SELECT id, collection, json FROM gone`;

/** Activity older than the cutoff that no revision refers to (an item change's activity goes with its last revision). */
const PRUNE_ACTIVITY = `
WITH doomed AS (
  SELECT a.id FROM activity a
   WHERE a.id > $1 AND a.id <= $2 AND a.timestamp < $3
     AND NOT EXISTS (SELECT 1 FROM revisions r WHERE r.activity = a.id)
   ORDER BY a.id LIMIT $4
)
DELETE FROM activity a USING doomed WHERE a.id = doomed.id
RETURNING a.id, a.collection, to_jsonb(a)::text AS json`;

export type RetainedEntity = CountedEntity;

/** The newest id among rows older than the cutoff (BRIN on timestamp): where a run's walk by id can stop. */
export async function lastIdBefore(client: PoolClient, entity: RetainedEntity, cutoff: Date): Promise<number> {
  const table = entity === 'revisions' ? 'revisions' : 'activity';
  const { rows } = await client.query<{ id: number | null }>(`SELECT max(id) AS id FROM ${table} WHERE timestamp < $1`, [cutoff]);
  return Number(rows[0]?.id ?? 0);
}

export interface PruneBatchOptions {
  afterId: number;
  untilId: number;
  cutoff: Date;
  limit: number;
  /** revisions only: the newest revisions kept per item, whatever their age (≥ 1). */
  keepLast?: number;
}

/** Delete one batch (ascending ids) and count it out; the rows are returned for the archive. */
export async function pruneBatch(client: PoolClient, entity: RetainedEntity, o: PruneBatchOptions): Promise<RetainedRow[]> {
  const { rows } =
    entity === 'revisions'
      ? await client.query<RetainedRow>(PRUNE_REVISIONS, [o.afterId, o.untilId, o.cutoff, Math.max(1, o.keepLast ?? 1), o.limit])
      : await client.query<RetainedRow>(PRUNE_ACTIVITY, [o.afterId, o.untilId, o.cutoff, o.limit]);
  const sorted = rows.map((r) => ({ ...r, id: Number(r.id) })).sort((a, b) => a.id - b.id);
  await countRows(client, entity, sorted, -1);
  return sorted;
}

async function countRows(client: PoolClient, entity: RetainedEntity, rows: RetainedRow[], sign: 1 | -1): Promise<void> {
  const byCollection = new Map<string, number>();
  for (const r of rows) byCollection.set(r.collection, (byCollection.get(r.collection) ?? 0) + sign);
  await addCounts(client, entity, byCollection);
  if (entity === 'revisions') await addBlockCounts(client, rows, sign);
}

/**
 * Put archived rows back (ids kept; a row already present is skipped) and count them in. A revision whose parent
 * is in neither the database nor the rows before it gets no parent, as when the parent was pruned; a revision
 * whose activity is gone fails: import the activity archive of the same run first.
 */
export async function importRows(client: PoolClient, entity: RetainedEntity, lines: string[]): Promise<number> {
  if (lines.length === 0) return 0;
  let docs = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  if (entity === 'revisions') {
    const parents = [...new Set(docs.map((d) => d.parent).filter((p) => p !== null && p !== undefined))];
    const { rows } = await client.query<{ id: number }>('SELECT id FROM revisions WHERE id = ANY($1::int8[])', [parents]);
    const present = new Set([...rows.map((r) => String(r.id)), ...docs.map((d) => String(d.id))]);
    docs = docs.map((d) => (d.parent !== null && d.parent !== undefined && !present.has(String(d.parent)) ? { ...d, parent: null } : d));
  }
  const table = entity === 'revisions' ? 'revisions' : 'activity';
  // a month pruned whole has no partition any more: its rows get one back
  await coverIds(client, table, docs.map((d) => Number(d.id)));
  const { rows } = await client.query<RetainedRow>(
    `INSERT INTO ${table}
     SELECT (jsonb_populate_record(NULL::${table}, e)).* FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, o) ORDER BY o
     ON CONFLICT DO NOTHING
     RETURNING id, collection, '' AS json`,
    [JSON.stringify(docs)],
  );
  await countRows(client, entity, rows.map((r) => ({ ...r, id: Number(r.id) })), 1);
  // ids come back as they were: the sequence must stay ahead of them (it is, unless the table was emptied since)
  await client.query(`SELECT setval('${table}_id_seq', m) FROM (SELECT max(id) AS m FROM ${table}) x WHERE m > (SELECT last_value FROM ${table}_id_seq)`);
  return rows.length;
}
