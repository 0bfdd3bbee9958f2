import { createHash } from 'node:crypto';
import { lockKey } from '../src/data/event.writer';

// The recorder's advisory lock keys are shared by every replica: a replica of an older release and one of this
// release recording the same item during a rolling upgrade must take the same lock, so the key never changes —
// the first 8 bytes of the SHA-256 of its name, read as a signed 64-bit integer.
const reference = (name: string) => createHash('sha256').update(name).digest().readBigInt64BE(0).toString();

describe('lockKey', () => {
  it("is an item change's item's key, the one earlier releases took", () => {
    for (const [collection, item] of [
      ['articles', '1'],
      ['bench_items', '1999'],
      ['ünïcode', 'é/ü?'],
      ['c', ''],
    ]) {
      expect(lockKey({ kind: 'item', collection: collection!, item: item!, id: 'e1' })).toBe(reference(`${collection}\0${item}`));
    }
  });

  it("is an audit event's own key, and keys span the signed range", () => {
    expect(lockKey({ kind: 'audit', collection: 'directus_users', item: 'u1', id: 'ev-9' })).toBe(reference('\0audit\0ev-9'));
    const keys = Array.from({ length: 200 }, (_, i) => BigInt(lockKey({ kind: 'item', collection: 'c', item: String(i), id: 'x' })));
    expect(keys.some((k) => k < 0n) && keys.some((k) => k > 0n)).toBe(true);
    expect(keys.every((k) => k >= -(2n ** 63n) && k < 2n ** 63n)).toBe(true);
  });
});
