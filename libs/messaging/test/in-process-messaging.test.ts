import { createInProcessMessaging, type BucketStore } from '../src';
import { describeMessagingContract } from './messaging-contract';

/** A store as a bucket's durable copy (the embedded topology's is a PostgreSQL table); `fail` makes writes throw. */
function memoryStore(initial: Record<string, unknown> = {}) {
  const rows = new Map(Object.entries(initial).map(([k, v]) => [k, JSON.stringify(v)]));
  const putAt = new Map([...rows.keys()].map((k) => [k, Date.now()]));
  const s = {
    rows,
    putAt,
    fail: false,
    loads: 0,
    prunes: [] as number[],
    async load() {
      s.loads++;
      if (s.fail) throw new Error('store down');
      return [...rows].map(([key, value]) => ({ key, value, at: putAt.get(key)! })).sort((a, b) => a.at - b.at);
    },
    async put(key: string, value: string) {
      await new Promise((r) => setTimeout(r, 5));
      if (s.fail) throw new Error('store down');
      rows.set(key, value);
      putAt.set(key, Date.now());
    },
    async delete(key: string) {
      if (s.fail) throw new Error('store down');
      rows.delete(key);
    },
    async prune(maxAgeMs: number) {
      s.prunes.push(maxAgeMs);
      for (const [key, at] of putAt) if (Date.now() - at >= maxAgeMs) rows.delete(key);
    },
  } satisfies BucketStore & Record<string, unknown>;
  return s;
}

describeMessagingContract('in-process', async () => createInProcessMessaging());
describeMessagingContract('in-process, bucket with a store', async () => createInProcessMessaging({ stores: { access: memoryStore() } }));

describe('in-process buckets with a store', () => {
  it('outlive the messaging: a new instance over the same store reads, lists and watches what the last one put', async () => {
    const store = memoryStore();
    const first = createInProcessMessaging({ stores: { vellum_mail_sent: store } });
    const sent = await first.keyValue<{ at: number }>('vellum_mail_sent');
    await sent.put('job-1', { at: 1 });
    await sent.put('job-2', { at: 2 });
    await sent.delete('job-2');
    await first.close(); // the process dies; only the store is left

    const second = createInProcessMessaging({ stores: { vellum_mail_sent: store } });
    const again = await second.keyValue<{ at: number }>('vellum_mail_sent');
    expect(await again.get('job-1')).toEqual({ at: 1 });
    expect(await again.get('job-2')).toBeUndefined();
    expect(await again.entries()).toEqual(new Map([['job-1', { at: 1 }]]));
    const seen: string[] = [];
    const w = await again.watch((k) => void seen.push(k));
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual(['job-1']);
    await w.stop();
    expect(store.loads).toBe(2); // once per instance, not per handle
    await (await second.keyValue('vellum_mail_sent')).get('job-1');
    expect(store.loads).toBe(2);
    await second.close();
  });

  it('resolves a put only once it is stored; a failed store write rejects and changes nothing', async () => {
    const store = memoryStore();
    const m = createInProcessMessaging({ stores: { b: store } });
    const kv = await m.keyValue<number>('b');
    const put = kv.put('k', 1);
    expect(store.rows.has('k')).toBe(false);
    await put;
    expect(store.rows.get('k')).toBe('1');
    store.fail = true;
    await expect(kv.put('k', 2)).rejects.toThrow('store down');
    await expect(kv.delete('k')).rejects.toThrow('store down');
    expect(await kv.get('k')).toBe(1);
    store.fail = false;
    await kv.put('k', 3); // the failed write does not block the next ones
    expect(await kv.get('k')).toBe(3);
    await m.close();
  });

  it('stores concurrent writes in the order they were made (the store ends as memory does)', async () => {
    const store = memoryStore();
    const m = createInProcessMessaging({ stores: { b: store } });
    const kv = await m.keyValue<number>('b');
    await Promise.all([kv.put('k', 1), kv.put('k', 2), kv.put('j', 1), kv.delete('j'), kv.put('k', 3)]);
    expect(await kv.entries()).toEqual(new Map([['k', 3]]));
    expect(store.rows).toEqual(new Map([['k', '3']]));
    await m.close();
  });

  it('opens a bucket only once its store is loaded; a load that failed is retried; other buckets never touch it', async () => {
    const store = memoryStore({ old: true });
    store.fail = true;
    const m = createInProcessMessaging({ stores: { b: store } });
    await expect(m.keyValue('b')).rejects.toThrow('store down');
    store.fail = false;
    expect(await (await m.keyValue('b')).get('old')).toBe(true);
    const other = await m.keyValue<number>('other');
    await other.put('x', 1);
    expect(store.rows.has('x')).toBe(false);
    await m.close();
  });
});

describe('in-process buckets with a maximum age', () => {
  let now = 1_000_000;
  beforeEach(() => jest.spyOn(Date, 'now').mockImplementation(() => now));
  afterEach(() => jest.restoreAllMocks());

  it('forget an entry that long after its last put (a put renews it); the store is pruned at load and each minute', async () => {
    const store = memoryStore();
    const m = createInProcessMessaging({ stores: { sent: store } });
    const kv = await m.keyValue<number>('sent', { maxAgeMs: 3_600_000 });
    expect(store.prunes).toEqual([3_600_000]); // at load
    await kv.put('a', 1);
    await kv.put('b', 1);
    now += 1_800_000;
    await kv.put('a', 2); // renewed: its hour starts again
    await kv.put('c', 1);
    now += 1_800_000; // b is an hour old
    expect(await kv.get('b')).toBeUndefined();
    expect(await kv.entries()).toEqual(
      new Map([
        ['a', 2],
        ['c', 1],
      ]),
    );
    await kv.put('d', 1); // the write queue is where the prune runs: wait for it
    expect(store.prunes).toEqual([3_600_000, 3_600_000, 3_600_000]); // at load, then at +30 min and +60 min
    expect([...store.rows.keys()].sort()).toEqual(['a', 'c', 'd']);
    now += 30_000;
    await kv.get('a');
    await kv.put('e', 1);
    expect(store.prunes).toHaveLength(3); // not again within the minute
    await m.close();

    // a restart: the store's entries keep their put times, so age goes on counting from then
    const again = createInProcessMessaging({ stores: { sent: store } });
    const kv2 = await again.keyValue<number>('sent', { maxAgeMs: 3_600_000 });
    now += 1_800_000 - 30_000; // a and c are an hour old, d and e half an hour
    expect(await kv2.entries()).toEqual(
      new Map([
        ['d', 1],
        ['e', 1],
      ]),
    );
    await again.close();
  });

  it('a bucket without a maximum age keeps its entries and never prunes', async () => {
    const store = memoryStore();
    const m = createInProcessMessaging({ stores: { kept: store } });
    const kv = await m.keyValue<number>('kept');
    await kv.put('a', 1);
    now += 365 * 24 * 3_600_000;
    expect(await kv.get('a')).toBe(1);
    expect(store.prunes).toEqual([]);
    await m.close();
  });
});

describe('in-process messaging specifics', () => {
  it('is unhealthy and refuses work after close', async () => {
    const m = createInProcessMessaging();
    const q = await m.workQueue('MAIL', { subjects: ['mail.>'] });
    await m.close();
    expect(await m.health()).toEqual({ status: 'error', reason: 'messaging is closed' });
    await expect(q.publish('mail.send', {}, { id: '1' })).rejects.toThrow('closed');
  });

  it('hands out copies: a handler cannot change what another group sees', async () => {
    const m = createInProcessMessaging();
    const s = await m.eventStream('ITEMS', { subjects: ['items.>'] });
    const data = { tags: ['a'] };
    await s.publish('items.x.create', data, { id: '1' });
    data.tags.push('mutated after publish');
    const seen: unknown[] = [];
    const a = await s.subscribe<{ tags: string[] }>({
      durable: 'a',
      handler: async (d) => void d.data.tags.push('x'),
    });
    const b = await s.subscribe({ durable: 'b', handler: async (d) => void seen.push(d.data) });
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([{ tags: ['a'] }]);
    await Promise.all([a.stop(), b.stop()]);
    await m.close();
  });
});
