import type { PoolClient } from 'pg';
import type { ItemChangeEvent } from '@vellum/contracts';
import { REVISION_BLOCK_SIZE } from './record-counts.repository';

/**
 * Item changes of one batch, at most one per item, each with `item_version`, recorded in ONE
 * statement: what the writer does per event (event.writer.ts) done for the whole set, for the common
 * case of changes that arrive in order. Per event, in the statement's snapshot (the writer holds every item's
 * advisory lock): a known event id is a duplicate; a change whose previous version is not recorded yet
 * (`item_version` > the item's newest + 1) is left for the caller to park; the others are recorded — activity,
 * revision with its delta against the previous version, the next revision's computed delta fixed when this one is
 * late, children waiting for it as parent linked, its parked copy dropped — and counted (record_counts, revisions
 * before activity, then revision_blocks: the order the writer's separate statements lock them in).
 */
const SQL = `
WITH e AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                       $10::jsonb[], $11::jsonb[], $12::text[], $13::int8[], $14::text[])
    WITH ORDINALITY AS e(action, actor, ts, ip, user_agent, collection, item, origin, event_id, data, delta, version, item_version, parent_event, o)
),
st AS (
  -- probes by index, one per event (an EXISTS may be planned as a hash of the whole activity table)
  SELECT e.*, (SELECT true FROM activity x WHERE x.event_id = e.event_id LIMIT 1) IS NOT NULL AS known,
         (SELECT max(r.item_version) FROM revisions r WHERE r.collection = e.collection AND r.item = e.item) AS last
    FROM e
),
ready AS (
  SELECT * FROM st WHERE NOT known AND item_version <= COALESCE(last, 0) + 1
),
a AS (
  INSERT INTO activity (action, "user", timestamp, ip, user_agent, collection, item, origin, event_id)
  SELECT action, actor, ts, ip, user_agent, collection, item, origin, event_id FROM ready ORDER BY o
  RETURNING id, event_id
),
r AS (
  INSERT INTO revisions (activity, collection, item, data, delta, parent, parent_event, version, event_id, timestamp, delta_computed, item_version)
  SELECT a.id, d.collection, d.item, d.data,
         CASE WHEN d.action = 'delete' THEN NULL WHEN d.delta IS NOT NULL THEN d.delta ELSE vellum_delta(prev.data, d.data) END,
         -- a parent recorded before this statement; one in this batch is linked by linkParents, after it
         (SELECT p.id FROM revisions p WHERE p.event_id = d.parent_event LIMIT 1), d.parent_event,
         d.version, d.event_id, d.ts, d.action <> 'delete' AND d.delta IS NULL, d.item_version
    FROM ready d JOIN a ON a.event_id = d.event_id
    LEFT JOIN LATERAL (
      -- read only for a delta to compute: a producer's delta (items sends one) skips it, a gate on d alone
      SELECT p.data FROM revisions p WHERE p.collection = d.collection AND p.item = d.item AND p.item_version < d.item_version
         AND d.delta IS NULL AND d.action <> 'delete'
       ORDER BY p.item_version DESC LIMIT 1
    ) prev ON true
   ORDER BY d.o
  RETURNING id, collection, event_id
),
fix_next AS (
  UPDATE revisions n SET delta = vellum_delta(d.data, n.data)
    FROM ready d
   WHERE d.item_version <= d.last AND n.delta_computed
     AND n.id = (SELECT x.id FROM revisions x WHERE x.collection = d.collection AND x.item = d.item AND x.item_version > d.item_version
                  ORDER BY x.item_version LIMIT 1)
  RETURNING 1
),
children AS (
  -- by the parent_event index alone: every revision without a parent is in the parent index's NULL range
  UPDATE revisions c SET parent = (SELECT r.id FROM r WHERE r.event_id = c.parent_event)
   WHERE c.parent_event = ANY (ARRAY(SELECT event_id FROM r)) AND COALESCE(c.parent, 0) = 0
  RETURNING 1
),
dropped AS (
  DELETE FROM pending_item_events WHERE event_id = ANY (ARRAY(SELECT event_id FROM ready))
  RETURNING 1
),
counted AS (
  INSERT INTO record_counts (entity, collection, count)
  SELECT entity, collection, n FROM (
    SELECT 'revisions' AS entity, collection, count(*) AS n FROM r GROUP BY collection
    UNION ALL
    SELECT 'activity', collection, count(*) FROM ready GROUP BY collection
  ) k ORDER BY entity DESC, collection
  ON CONFLICT (entity, collection) DO UPDATE SET count = record_counts.count + EXCLUDED.count
  RETURNING 1
),
blocks AS (
  -- after the counters (it waits for all of them), in (collection, block) order, as addBlockCounts
  INSERT INTO revision_blocks (collection, block, count)
  SELECT b.collection, b.block, b.n FROM (
    SELECT collection, id / ${REVISION_BLOCK_SIZE} AS block, count(*) AS n FROM r GROUP BY 1, 2
  ) b CROSS JOIN (SELECT count(*) FROM counted) z
   ORDER BY b.collection, b.block
  ON CONFLICT (collection, block) DO UPDATE SET count = revision_blocks.count + EXCLUDED.count
  RETURNING 1
)
SELECT st.known, r.id::text AS revision,
       (SELECT true FROM pending_item_events p WHERE p.collection = st.collection AND p.item = st.item AND p.item_version = st.item_version + 1 LIMIT 1) IS NOT NULL AS parked_next,
       (SELECT count(*) FROM fix_next) + (SELECT count(*) FROM children) + (SELECT count(*) FROM dropped) + (SELECT count(*) FROM blocks) AS touched
  FROM st LEFT JOIN r ON r.event_id = st.event_id
 ORDER BY st.o`;

/** Exported for the test of its plan (batch-recording-plan.test.ts). */
export const RECORD_IN_ORDER = { name: 'vellum_write_in_order', text: SQL };

type ItemEvent = { kind: 'item' } & ItemChangeEvent;

/** Per event: `duplicate`, `recorded` (with whether a parked change follows it), or `early` (to park). */
export type InOrderOutcome = { outcome: 'duplicate' } | { outcome: 'early' } | { outcome: 'recorded'; parkedNext: boolean };

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/** Records `events` (see SQL above: at most one per item, versioned, without parent) in one statement. */
export async function recordInOrder(client: Pick<PoolClient, 'query'>, events: ItemEvent[]): Promise<InOrderOutcome[]> {
  const col = <T>(f: (e: ItemEvent) => T) => events.map(f);
  const { rows } = await client.query<{ known: boolean; revision: string | null; parked_next: boolean }>({
    ...RECORD_IN_ORDER,
    values: [
      col((e) => e.action),
      col((e) => e.actor.user),
      col((e) => e.timestamp),
      col((e) => e.actor.ip ?? null),
      col((e) => e.actor.user_agent ?? null),
      col((e) => e.collection),
      col((e) => e.item),
      col((e) => e.actor.origin ?? null),
      col((e) => e.id),
      col((e) => json(e.data)),
      col((e) => (e.action === 'delete' ? null : json(e.delta))),
      col((e) => e.version ?? null),
      col((e) => e.item_version!),
      col((e) => e.parent_event ?? null),
    ],
  });
  return rows.map((r) => (r.known ? { outcome: 'duplicate' } : r.revision === null ? { outcome: 'early' } : { outcome: 'recorded', parkedNext: r.parked_next }));
}

const LINK_PARENTS = {
  name: 'vellum_link_parents',
  text: `UPDATE revisions c SET parent = p.id FROM revisions p
          WHERE c.event_id = ANY($1::text[]) AND c.parent IS NULL AND p.event_id = c.parent_event`,
};

/**
 * The parents of a batch's children recorded in the same statement as them (a statement does not see its own
 * inserts): one more statement, only for a batch that carried children.
 */
export async function linkParents(client: Pick<PoolClient, 'query'>, events: ItemEvent[]): Promise<void> {
  const children = events.filter((e) => e.parent_event).map((e) => e.id);
  if (children.length) await client.query({ ...LINK_PARENTS, values: [children] });
}
