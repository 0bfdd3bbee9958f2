import type { Pool } from 'pg';

/** One item's version as a client names it (`<collection>/<item>@<version>`). */
export interface ItemVersion {
  collection: string;
  item: string;
  version: number;
}

const RECORDED = {
  name: 'revisions_recorded_versions',
  text: `SELECT (SELECT max(r.item_version) FROM revisions r WHERE r.collection = w.c AND r.item = w.i) AS v
           FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS w(c, i, o) ORDER BY w.o`,
};

/** The newest recorded version of each item (0 when none), in the order given: one statement on the (collection, item, item_version) index. */
export async function recordedVersions(pool: Pool, items: Pick<ItemVersion, 'collection' | 'item'>[]): Promise<number[]> {
  const r = await pool.query<{ v: number | null }>({ ...RECORDED, values: [items.map((w) => w.collection), items.map((w) => w.item)] });
  return r.rows.map((row) => Number(row.v ?? 0));
}
