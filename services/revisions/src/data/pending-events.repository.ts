import type { Pool, PoolClient } from 'pg';
import type { ItemChangeEvent } from '@vellum/contracts';

type ItemEvent = { kind: 'item' } & ItemChangeEvent;

/**
 * Item changes that arrived before their item's previous version was recorded, parked in the
 * database until it is: acknowledged, so they hold no consumer slot and use up no deliveries, and shared by every
 * replica. Called inside the writer's transaction, under the item's advisory lock.
 */
export const pendingEvents = {
  async park(client: PoolClient, e: ItemEvent): Promise<void> {
    await client.query(
      `INSERT INTO pending_item_events (event_id, collection, item, item_version, payload) VALUES ($1, $2, $3, $4, $5::jsonb)
       ON CONFLICT (event_id) DO NOTHING`,
      [e.id, e.collection, e.item, e.item_version, JSON.stringify(e)],
    );
  },

  /** The parked change that follows `version` of an item, taken out of the park (null when there is none). */
  async takeNext(client: PoolClient, e: ItemEvent): Promise<ItemEvent | null> {
    const { rows } = await client.query<{ payload: ItemEvent }>(
      `DELETE FROM pending_item_events WHERE event_id = (
         SELECT event_id FROM pending_item_events WHERE collection = $1 AND item = $2 AND item_version = $3 LIMIT 1
       ) RETURNING payload`,
      [e.collection, e.item, e.item_version! + 1],
    );
    return rows[0]?.payload ?? null;
  },

  /** Forgets a parked copy of a change that has just been recorded (it arrived again, or was forced). */
  async drop(client: PoolClient, e: ItemEvent): Promise<void> {
    await client.query(`DELETE FROM pending_item_events WHERE event_id = $1`, [e.id]);
  },

  /** Per item with changes parked longer than `olderThanMs`: its lowest parked change (the gap's end). */
  async overdue(pool: Pool, olderThanMs: number): Promise<ItemEvent[]> {
    const { rows } = await pool.query<{ payload: ItemEvent }>(
      `SELECT DISTINCT ON (collection, item) payload FROM pending_item_events
        WHERE (collection, item) IN (SELECT collection, item FROM pending_item_events WHERE received_at < now() - make_interval(secs => $1::float8 / 1000))
        ORDER BY collection, item, item_version`,
      [olderThanMs],
    );
    return rows.map((r) => r.payload);
  },
};
