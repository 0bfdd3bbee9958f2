import type { KV, KvEntry, KvWatchOptions } from '@nats-io/kv';
import { NatsKeyValueMap } from '../src/nats-key-value-map';

/** A unit test of the watch's recovery: the KV client is a fake whose first watch iterator fails. */
function entry(key: string, revision: number, v: unknown): KvEntry {
  const text = JSON.stringify(v);
  return { key, revision, operation: 'PUT', length: text.length, string: () => text } as unknown as KvEntry;
}

/** An iterator that yields `entries`, then fails (`fail`) or waits until stopped. */
function watchIterator(entries: KvEntry[], fail: boolean) {
  let stop = (): void => {};
  const stopped = new Promise<void>((r) => (stop = r));
  return {
    stop: () => stop(),
    async *[Symbol.asyncIterator]() {
      for (const e of entries) yield e;
      if (fail) throw new Error('consumer could not be re-created');
      await stopped;
    },
  };
}

test('a watch whose iterator fails watches again from the next revision, and stop() ends it', async () => {
  const calls: (KvWatchOptions | undefined)[] = [];
  const iterators = [watchIterator([entry('a', 1, 1), entry('b', 2, 2)], true), watchIterator([entry('c', 3, 3)], false)];
  const kv = {
    status: async () => ({ streamInfo: { state: { last_seq: 2 } } }),
    watch: async (o?: KvWatchOptions) => {
      calls.push(o);
      return iterators.shift();
    },
  } as unknown as KV;
  const map = new NatsKeyValueMap<number>(kv, () => () => undefined);
  const seen: [string, number | undefined][] = [];
  const sub = await map.watch((k, v) => void seen.push([k, v]));
  const end = Date.now() + 5000;
  while (seen.length < 3 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  expect(seen).toEqual([
    ['a', 1],
    ['b', 2],
    ['c', 3],
  ]);
  expect(calls).toEqual([undefined, { resumeFromRevision: 3 }]);
  await sub.stop();
  expect(calls).toHaveLength(2);
});

test('a watch whose connection is closed ends instead of watching again (nothing keeps the process alive)', async () => {
  let calls = 0;
  const kv = {
    status: async () => ({ streamInfo: { state: { last_seq: 0 } } }),
    watch: async () => (calls++, watchIterator([entry('a', 1, 1)], true)),
  } as unknown as KV;
  const map = new NatsKeyValueMap<number>(
    kv,
    () => () => undefined,
    () => true,
  );
  const seen: string[] = [];
  const sub = await map.watch((k) => void seen.push(k));
  await new Promise((r) => setTimeout(r, 400));
  expect(seen).toEqual(['a']);
  expect(calls).toBe(1);
  await sub.stop();
});
