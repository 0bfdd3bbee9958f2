import type { Pool } from 'pg';

/** An item's state as one revision recorded it (`data` null: the item was deleted by that change). */
export interface StateRow {
  id: number;
  collection: string;
  item: string;
  data: Record<string, unknown> | null;
  timestamp: Date;
}

/** The oldest revision still kept of an item: its item version and change tell whether anything came before it. */
export interface FirstKept {
  timestamp: Date;
  item_version: number | null;
  action: string | null;
}

/**
 * Nothing of the item's history was pruned before `first`: it is the item's first version (versions go on across a
 * delete and a re-create), or, from a producer without versions, a create.
 */
export const historyComplete = (first: Pick<FirstKept, 'item_version' | 'action'>) =>
  first.item_version === null ? first.action === 'create' : Number(first.item_version) === 1;

// A revision with `version` set is a save to a content version (a draft), never a state of the item: skipped.

/**
 * The item's newest revision at or before `at`, by time, then by id: in each partition one backward descent of
 * revisions_item_state_idx ((collection, item, timestamp, id), its states only), whose order is the statement's, so
 * the Merge Append reads one entry, and one row, per partition (no sort of the rows of one time).
 */
const STATE_AT = `SELECT id, collection, item, data, timestamp FROM revisions
  WHERE collection = $1 AND item = $2 AND timestamp <= $3 AND version IS NULL ORDER BY timestamp DESC, id DESC LIMIT 1`;

const FIRST_KEPT = `SELECT r.timestamp, r.item_version, a.action FROM revisions r LEFT JOIN activity a ON a.id = r.activity
  WHERE r.collection = $1 AND r.item = $2 AND r.version IS NULL ORDER BY r.timestamp, r.id LIMIT 1`;

const BY_ID = `SELECT id, collection, item, data, timestamp FROM revisions WHERE id = $1`;

/**
 * Every item the collection ever had (revision_heads) with its state at `at`; for an item with no revision by then,
 * its oldest kept revision instead (the gating `s.id IS NULL` runs that descent only for those), so pruned history
 * is told from an item that did not exist yet.
 */
const COLLECTION_AT = `SELECT h.item, s.id, s.data, s.timestamp, f.timestamp AS first_at, f.item_version AS first_version, f.action AS first_action
  FROM revision_heads h
  LEFT JOIN LATERAL (SELECT r.id, r.data, r.timestamp FROM revisions r
    WHERE r.collection = h.collection AND r.item = h.item AND r.timestamp <= $2 AND r.version IS NULL
    ORDER BY r.timestamp DESC, r.id DESC LIMIT 1) s ON true
  LEFT JOIN LATERAL (SELECT r.timestamp, r.item_version, a.action FROM revisions r LEFT JOIN activity a ON a.id = r.activity
    WHERE s.id IS NULL AND r.collection = h.collection AND r.item = h.item AND r.version IS NULL
    ORDER BY r.timestamp, r.id LIMIT 1) f ON true
  WHERE h.collection = $1`;

export interface CollectionStateRow {
  item: string;
  id: number | null;
  data: Record<string, unknown> | null;
  timestamp: Date | null;
  first_at: Date | null;
  first_version: number | null;
  first_action: string | null;
}

/** Reads of past states from the revisions table (the as-of reads, compare and restore build on them). */
export const asOfRepository = {
  async stateAt(pool: Pool, collection: string, item: string, at: Date): Promise<StateRow | undefined> {
    return (await pool.query<StateRow>({ name: 'as_of_state_at', text: STATE_AT, values: [collection, item, at] })).rows[0];
  },

  async firstKept(pool: Pool, collection: string, item: string): Promise<FirstKept | undefined> {
    return (await pool.query<FirstKept>({ name: 'as_of_first_kept', text: FIRST_KEPT, values: [collection, item] })).rows[0];
  },

  async byId(pool: Pool, id: string): Promise<StateRow | undefined> {
    return (await pool.query<StateRow>({ name: 'as_of_by_id', text: BY_ID, values: [id] })).rows[0];
  },

  /** The item's newest revision (its head): the item as stored once its history has caught up. */
  async head(pool: Pool, collection: string, item: string): Promise<StateRow | undefined> {
    const text = `SELECT r.id, r.collection, r.item, r.data, r.timestamp FROM revision_heads h JOIN revisions r ON r.id = h.id
      WHERE h.collection = $1 AND h.item = $2`;
    return (await pool.query<StateRow>({ name: 'as_of_head', text, values: [collection, item] })).rows[0];
  },

  async collectionAt(pool: Pool, collection: string, at: Date): Promise<CollectionStateRow[]> {
    return (await pool.query<CollectionStateRow>({ name: 'as_of_collection_at', text: COLLECTION_AT, values: [collection, at] })).rows;
  },
};
