import type { Pool } from 'pg';
import { asOfPageRepository, fingerprintKey, INTEGER_KEY, type CollectionShape } from '../../data/as-of-page.repository';

export interface KeptShape {
  fingerprint: string;
  shape: CollectionShape;
}

/** Collections whose shape is kept (least recently used out first). */
const MAX_SHAPES = 500;
/** The most revisions added since the kept shape that update it (more: computed again). */
const MAX_DELTA = 10_000;

/**
 * What a list as it was needs of a collection's whole history (the 410 `horizon`, whether its keys are integers),
 * kept per collection under the fingerprint of its revisions (their count and newest id, read by each list in its
 * own statement), updated from the revisions added since, computed again when rows went.
 */
export class KeptShapes {
  private readonly shapes = new Map<string, KeptShape>();

  constructor(private readonly pool: Pool) {}

  /** The kept shape, whatever its fingerprint (marked as recently used). */
  peek(collection: string): KeptShape | undefined {
    const kept = this.shapes.get(collection);
    return kept && this.keep(collection, kept);
  }

  /** The shape under `fingerprint` (a list's read; undefined: read now): the kept one, brought up to date, or computed. */
  async current(collection: string, fingerprint: string | undefined): Promise<KeptShape> {
    const kept = this.shapes.get(collection);
    if (kept && fingerprint !== undefined && kept.fingerprint === fingerprint) return this.keep(collection, kept);
    return kept && fingerprint !== undefined ? this.update(collection, kept, fingerprint) : this.compute(collection, fingerprint);
  }

  /** The collection's shape computed now, kept under `fingerprint` (read before it: the shape is never older). */
  private async compute(collection: string, fingerprint: string | undefined): Promise<KeptShape> {
    const fp = fingerprint ?? fingerprintKey(await asOfPageRepository.fingerprint(this.pool, collection));
    return this.keep(collection, { fingerprint: fp, shape: await asOfPageRepository.shape(this.pool, collection) });
  }

  /**
   * The kept shape brought to `fingerprint` from the revisions added since (ids above the kept newest id) when
   * nothing was removed (the count grew by exactly those) and no item's oldest kept revision changed but a new
   * item's; else computed again.
   */
  private async update(collection: string, kept: KeptShape, fingerprint: string): Promise<KeptShape> {
    const [count, maxId] = kept.fingerprint.split('/');
    const [count2, maxId2] = fingerprint.split('/');
    const added = Number(count2) - Number(count);
    if (maxId !== 'null' && maxId2 !== 'null' && added > 0 && added <= MAX_DELTA) {
      const rows = await asOfPageRepository.shapeDelta(this.pool, collection, maxId!, maxId2!);
      if (rows.length > 0 && Number(rows[0]!.n) === added && rows.every((r) => !(r.first_new && r.had_old))) {
        let { horizon, numeric } = kept.shape;
        for (const r of rows) {
          if (r.first_new && r.incomplete && (!horizon || r.timestamp! > horizon)) horizon = r.timestamp;
          numeric &&= INTEGER_KEY.test(r.item);
        }
        return this.keep(collection, { fingerprint, shape: { horizon, numeric } });
      }
    }
    return this.compute(collection, fingerprint);
  }

  private keep(collection: string, kept: KeptShape): KeptShape {
    this.shapes.delete(collection); // most recently used last
    this.shapes.set(collection, kept);
    if (this.shapes.size > MAX_SHAPES) this.shapes.delete(this.shapes.keys().next().value!);
    return kept;
  }
}
