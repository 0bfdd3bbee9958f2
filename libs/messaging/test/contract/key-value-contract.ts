import { sleep, waitFor, type ContractSubject } from './contract-support';

/** The key-value map part of the contract. */
export function describeKeyValueContract(subject: () => ContractSubject): void {
  describe('key-value map', () => {
    let { m, track } = {} as ContractSubject;
    beforeEach(() => void ({ m, track } = subject()));

    it('puts, gets, deletes and lists entries', async () => {
      const kv = await m.keyValue<{ role: string }>('access');
      expect(await kv.get('u1')).toBeUndefined();
      await kv.put('u1', { role: 'admin' });
      await kv.put('u2', { role: 'viewer' });
      expect(await kv.get('u1')).toEqual({ role: 'admin' });
      await kv.put('u1', { role: 'editor' });
      expect(await kv.get('u1')).toEqual({ role: 'editor' });
      await kv.delete('u2');
      expect(await kv.get('u2')).toBeUndefined();
      expect(await kv.entries()).toEqual(new Map([['u1', { role: 'editor' }]]));
      // a second handle on the same bucket sees the same data
      const again = await m.keyValue<{ role: string }>('access');
      expect(await again.get('u1')).toEqual({ role: 'editor' });
    });

    it('forgets an entry maxAgeMs after its last put (a bucket with a maximum age), not before', async () => {
      const kv = await m.keyValue<number>('expiring', { maxAgeMs: 1000 });
      await kv.put('a', 1);
      const start = Date.now();
      expect(await kv.get('a')).toBe(1);
      let gone = false;
      while (!gone && Date.now() - start < 10_000) gone = await sleep(50).then(async () => (await kv.get('a')) === undefined);
      expect(gone).toBe(true);
      expect(Date.now() - start).toBeGreaterThanOrEqual(900);
      expect(await kv.entries()).toEqual(new Map());
    });

    it('watch delivers the initial values, then later changes and deletes', async () => {
      const kv = await m.keyValue<number>('access');
      await kv.put('a', 1);
      await kv.put('b', 2);
      await kv.delete('b');
      const events: [string, number | undefined][] = [];
      const w = track(await kv.watch((k, v) => void events.push([k, v])));
      await waitFor(() => events.length >= 1);
      await sleep(100);
      expect(events).toEqual([['a', 1]]);
      await kv.put('c', 3);
      await kv.put('a', 10);
      await kv.delete('c');
      await waitFor(() => events.length >= 4);
      expect(events).toEqual([
        ['a', 1],
        ['c', 3],
        ['a', 10],
        ['c', undefined],
      ]);
      await w.stop();
      await kv.put('z', 26);
      await sleep(150);
      expect(events).toHaveLength(4);
    });
  });
}
