import { hash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { AuditEvent, ItemChangeEvent } from '@vellum/contracts';
import { withTransaction } from '@vellum/db';
import { pendingEvents } from './pending-events.repository';
import { linkParents, recordInOrder } from './record-in-order';
import { addBlockCounts, addCounts } from './record-counts.repository';

export type RecordableEvent = ({ kind: 'item' } & ItemChangeEvent) | ({ kind: 'audit' } & AuditEvent);
/** `parked`: the item's previous version is not recorded yet; kept in pending_item_events until it is. */
export type WriteOutcome = 'recorded' | 'duplicate' | 'parked';
type ItemEvent = Extract<RecordableEvent, { kind: 'item' }>;

/**
 * Where an item's revisions are ordered: by `item_version` when the producer versions its items (the commit
 * order of the item's writes), else by event time. `prev` is the state the delta is computed against,
 * `nxt` the revision whose computed delta is fixed when an earlier change is recorded after it.
 */
const ORDER = {
  version: {
    prev: `item_version < $14 ORDER BY item_version DESC`,
    next: `item_version > $14 ORDER BY item_version ASC`,
  },
  time: {
    prev: `(timestamp, event_id) < ($3::timestamptz, $9) ORDER BY timestamp DESC, event_id DESC`,
    next: `(timestamp, event_id) > ($3::timestamptz, $9) ORDER BY timestamp ASC, event_id ASC`,
  },
} as const;

/**
 * The event's activity row, unless its event id is recorded already. The tables are partitioned, so no unique index
 * can say so: the writer holds the event's advisory lock (its item's, or its own for an audit event) while it
 * checks, so two writers of one event id take turns and the second sees the first's committed row.
 */
const INSERT_ACTIVITY = `INSERT INTO activity (action, "user", timestamp, ip, user_agent, collection, item, origin, event_id)
  SELECT $1, $2, $3::timestamptz, $4, $5, $6, $7, $8, $9
   WHERE NOT EXISTS (SELECT 1 FROM activity WHERE event_id = $9)
  RETURNING id`;

/**
 * One statement per item change: the activity row (skipped when the event id is known), the revision with its
 * delta against the item's previous revision (see ORDER), the parent link, and — when an earlier change is
 * recorded late — the next revision's computed delta and any children waiting for this parent.
 */
const itemSql = (order: keyof typeof ORDER) => `
WITH a AS (
  ${INSERT_ACTIVITY}
),
prev AS (
  SELECT data FROM revisions WHERE collection = $6 AND item = $7 AND ${ORDER[order].prev} LIMIT 1
),
nxt AS (
  SELECT id FROM revisions WHERE collection = $6 AND item = $7 AND ${ORDER[order].next} LIMIT 1
),
r AS (
  INSERT INTO revisions (activity, collection, item, data, delta, parent, parent_event, version, event_id, timestamp, delta_computed, item_version)
  SELECT a.id, $6, $7, $10::jsonb,
         CASE WHEN $1 = 'delete' THEN NULL WHEN $11::jsonb IS NOT NULL THEN $11::jsonb ELSE vellum_delta((SELECT data FROM prev), $10::jsonb) END,
         (SELECT id FROM revisions WHERE event_id = $12), $12, $13, $9, $3::timestamptz,
         $1 <> 'delete' AND $11::jsonb IS NULL, $14::int8
    FROM a
  RETURNING id
),
fix_next AS (
  UPDATE revisions n SET delta = vellum_delta($10::jsonb, n.data)
   WHERE n.id = (SELECT id FROM nxt) AND n.delta_computed AND EXISTS (SELECT 1 FROM a)
  RETURNING 1
),
children AS (
  UPDATE revisions c SET parent = (SELECT id FROM r)
   WHERE c.parent_event = $9 AND c.parent IS NULL AND EXISTS (SELECT 1 FROM r)
  RETURNING 1
)
SELECT (SELECT id FROM a) AS activity, (SELECT id FROM r) AS revision`;

/**
 * The writer's statements, named: each is prepared once per connection (planning them over the partitioned tables
 * grows with the partitions).
 */
const ITEM_SQL = { version: { name: 'vellum_write_item_v', text: itemSql('version') }, time: { name: 'vellum_write_item_t', text: itemSql('time') } };

/** The newest version recorded for an item, and whether this event is already recorded. */
const LAST_VERSION_TEXT = `
SELECT (SELECT max(item_version) FROM revisions WHERE collection = $1 AND item = $2)::text AS last,
       EXISTS (SELECT 1 FROM activity WHERE event_id = $3) AS known`;

const LAST_VERSION_SQL = { name: 'vellum_write_last_version', text: LAST_VERSION_TEXT };

/** An audit event's activity row (no revision), with its `comment` ($10; e.g. why a scheduled promote failed). */
const AUDIT_SQL = {
  name: 'vellum_write_audit_c',
  text: `INSERT INTO activity (action, "user", timestamp, ip, user_agent, collection, item, origin, event_id, comment)
  SELECT $1, $2, $3::timestamptz, $4, $5, $6, $7, $8, $9, $10
   WHERE NOT EXISTS (SELECT 1 FROM activity WHERE event_id = $9)
  RETURNING id`,
};

/** The advisory locks of a batch's events, in key order (so concurrent writers never wait on each other in a cycle). */
const LOCK_SQL = { name: 'vellum_write_lock', text: 'SELECT pg_advisory_xact_lock(k) FROM unnest($1::int8[]) AS k ORDER BY k' };

/**
 * 64-bit advisory lock key of an event: its item's for an item change (serialises writers of the same item across
 * batches and replicas), its own id's for an audit event (serialises writers of the same event).
 */
export function lockKey(e: { kind: RecordableEvent['kind']; collection: string; item?: string | null; id: string }): string {
  const name = e.kind === 'item' ? `${e.collection}\0${e.item}` : `\0audit\0${e.id}`;
  // the first 8 bytes of its SHA-256 as a signed int8 (one-shot hash: a third of a Hash object's cost per event)
  return BigInt.asIntN(64, BigInt(`0x${hash('sha256', name, 'hex').slice(0, 16)}`)).toString();
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/** Item events of one item in version order (unversioned ones keep their place after the versioned ones). */
function recordingOrder(events: RecordableEvent[]): number[] {
  const version = (e: RecordableEvent) => (e.kind === 'item' ? (e.item_version ?? Infinity) : Infinity);
  return events.map((_, i) => i).sort((x, y) => version(events[x]!) - version(events[y]!) || x - y);
}

/**
 * The events of a batch the one-statement path takes (record-in-order.ts): per item, its first change in recording
 * order, when it is versioned, is not forced, and its event id is not twice in the batch.
 */
function inOrderCandidates(events: RecordableEvent[], order: number[], force: ReadonlySet<string>): number[] {
  const items = new Set<string>();
  const ids = new Map<string, number>();
  for (const e of events) ids.set(e.id, (ids.get(e.id) ?? 0) + 1);
  const out: number[] = [];
  for (const i of order) {
    const e = events[i]!;
    if (e.kind !== 'item' || e.item_version === undefined) continue;
    const key = `${e.collection}\0${e.item}`;
    if (items.has(key)) continue;
    items.add(key);
    if (force.has(e.id) || ids.get(e.id)! > 1) continue;
    out.push(i);
  }
  return out.sort((a, b) => a - b);
}

/**
 * Writes a batch of events in one transaction; each event's effect is exactly-once by its id. A versioned item
 * change is recorded only once the item's previous version is: until then it is parked (outcome `parked`), and
 * recording a version records the parked ones that follow it, in the same transaction. So one item's revisions
 * are recorded — and numbered — in the order its writes committed, whichever replica receives which event first.
 * `force`: ids recorded even though their predecessor is missing (parked too long, see `releaseOverdue`).
 */
export class EventWriter {
  /** `inOrder: false`: every event through the per-event statements (what the one-statement path is tested against). */
  constructor(
    private readonly pool: Pool,
    private readonly options: { inOrder?: boolean } = {},
  ) {}

  async write(events: RecordableEvent[], force: ReadonlySet<string> = new Set()): Promise<WriteOutcome[]> {
    // A connection dying between statements (database restart, failover) fails this batch, not the process.
    return withTransaction(this.pool, async (client) => {
      const keys = [...new Set(events.map(lockKey))].sort();
      // not awaited before the next statement: the server runs them in order (pipelined, in the same round trip), so
      // that statement's snapshot is taken once the locks are held; a failed lock fails it too (awaited at the end)
      const locked = keys.length ? client.query({ ...LOCK_SQL, values: [keys] }) : undefined;
      locked?.catch(() => undefined);
      const outcomes: WriteOutcome[] = new Array(events.length);
      const revisions = new Map<string, number>();
      const activities = new Map<string, number>();
      const revisionIds: { collection: string; id: number }[] = [];
      const record = async (e: RecordableEvent): Promise<boolean> => {
        const written = await this.writeOne(client, e);
        if (!written) return false;
        activities.set(e.collection, (activities.get(e.collection) ?? 0) + 1);
        if (written.revision !== null) {
          revisions.set(e.collection, (revisions.get(e.collection) ?? 0) + 1);
          revisionIds.push({ collection: e.collection, id: written.revision });
        }
        return true;
      };
      // the parked changes that were waiting for `e`, in version order
      const recordParkedAfter = async (e: ItemEvent) => {
        for (let next = await pendingEvents.takeNext(client, e); next; next = await pendingEvents.takeNext(client, next)) {
          await record({ ...next, kind: 'item' });
        }
      };
      const order = recordingOrder(events);
      // the common case in one statement: each item's first change of the batch, when it can go there
      const inOrder = this.options.inOrder === false ? [] : inOrderCandidates(events, order, force);
      const results = inOrder.length ? await recordInOrder(client, inOrder.map((i) => events[i] as ItemEvent)) : [];
      if (inOrder.length) await linkParents(client, inOrder.map((i) => events[i] as ItemEvent));
      for (let k = 0; k < inOrder.length; k++) {
        const i = inOrder[k]!;
        const e = events[i] as ItemEvent;
        const r = results[k]!;
        outcomes[i] = r.outcome === 'early' ? 'parked' : r.outcome;
        if (r.outcome === 'early') await pendingEvents.park(client, e);
        if (r.outcome === 'recorded' && r.parkedNext) await recordParkedAfter(e);
      }
      const done = new Set(inOrder);
      for (const i of order) {
        if (done.has(i)) continue;
        const e = events[i]!;
        if (e.kind !== 'item' || e.item_version === undefined) {
          outcomes[i] = (await record(e)) ? 'recorded' : 'duplicate';
          continue;
        }
        const ready = force.has(e.id) ? true : await this.previousRecorded(client, e);
        if (ready === 'duplicate') {
          outcomes[i] = 'duplicate';
        } else if (ready === 'parked') {
          await pendingEvents.park(client, e);
          outcomes[i] = 'parked';
        } else {
          outcomes[i] = (await record(e)) ? 'recorded' : 'duplicate';
          await pendingEvents.drop(client, e);
          await recordParkedAfter(e);
        }
      }
      await addCounts(client, 'revisions', revisions);
      await addCounts(client, 'activity', activities);
      await addBlockCounts(client, revisionIds);
      await locked;
      return outcomes;
    });
  }

  /**
   * Records, for every item with a change parked longer than `olderThanMs`, its lowest parked change anyway
   * (and the parked ones that follow it): its predecessor is given up for now (it still takes its place by
   * version if it comes). Returns the changes so recorded out of order. Safe on several replicas at once.
   */
  async releaseOverdue(olderThanMs: number): Promise<ItemEvent[]> {
    const released: ItemEvent[] = [];
    for (const e of await pendingEvents.overdue(this.pool, olderThanMs)) {
      const [outcome] = await this.write([{ ...e, kind: 'item' }], new Set([e.id]));
      if (outcome === 'recorded') released.push(e);
    }
    return released;
  }

  /** True when the item's previous version is recorded (or this one is the first, or a late one). */
  private async previousRecorded(client: PoolClient, e: ItemChangeEvent): Promise<true | 'duplicate' | 'parked'> {
    const { rows } = await client.query<{ last: string | null; known: boolean }>({ ...LAST_VERSION_SQL, values: [e.collection, e.item, e.id] });
    const { last, known } = rows[0]!;
    if (known) return 'duplicate';
    const expected = last === null ? 1 : Number(last) + 1;
    // Below `expected`: a change recorded late after its successors were forced through; it takes its place by version.
    return e.item_version! > expected ? 'parked' : true;
  }

  /** Null for a duplicate; else the new revision's id (null for an audit event). */
  private async writeOne(client: PoolClient, e: RecordableEvent): Promise<{ revision: number | null } | null> {
    const common = [e.action, e.actor.user, e.timestamp, e.actor.ip ?? null, e.actor.user_agent ?? null, e.collection, e.item, e.actor.origin ?? null, e.id];
    if (e.kind === 'audit') {
      const { rowCount } = await client.query({ ...AUDIT_SQL, values: [...common, e.comment ?? null] });
      return (rowCount ?? 0) > 0 ? { revision: null } : null;
    }
    const { rows } = await client.query<{ activity: number | null; revision: number | null }>(ITEM_SQL[e.item_version === undefined ? 'time' : 'version'], [
      ...common,
      json(e.data), // a delete's data: null, or the row's last state (a nested delete)
      e.action === 'delete' ? null : json(e.delta),
      e.parent_event ?? null,
      e.version ?? null,
      e.item_version ?? null,
    ]);
    const row = rows[0];
    if (row?.activity === null || row?.activity === undefined) return null;
    return { revision: Number(row.revision) };
  }
}
