import { RawJson } from '@vellum/contracts';
import type { Delivery } from '../../src';
import { deadLettersOf, sleep, waitFor, type ContractSubject } from './contract-support';

/** The event stream part of the contract. */
export function describeEventStreamContract(subject: () => ContractSubject): void {
  describe('event stream', () => {
    let { m, track } = {} as ContractSubject;
    beforeEach(() => void ({ m, track } = subject()));

    it('shares a group between two members: 200 events, each handled exactly once', async () => {
      const s = await m.eventStream('ITEMS', { subjects: ['items.>'] });
      const handled: Record<string, string[]> = { a: [], b: [] };
      for (const member of ['a', 'b'])
        track(
          await s.subscribe<{ n: number }>({
            durable: 'revisions',
            concurrency: 4,
            handler: async (d) => {
              handled[member].push(d.id);
              await sleep(2);
            },
          }),
        );
      const ids = Array.from({ length: 200 }, (_, i) => `ev-${i}`);
      for (let i = 0; i < ids.length; i += 50) await Promise.all(ids.slice(i, i + 50).map((id, j) => s.publish('items.articles.update', { n: i + j }, { id })));
      await waitFor(() => handled.a.length + handled.b.length >= 200, 20_000, '200 events');
      await sleep(300);
      const all = [...handled.a, ...handled.b];
      expect(all).toHaveLength(200);
      expect(new Set(all)).toEqual(new Set(ids));
      expect(handled.a.length).toBeGreaterThan(0);
      expect(handled.b.length).toBeGreaterThan(0);
    });

    it('delivers a body published as its JSON text (RawJson) as the value the text encodes', async () => {
      const s = await m.eventStream('ITEMS', { subjects: ['items.>'] });
      const got: unknown[] = [];
      track(await s.subscribe({ durable: 'encoded', handler: async (d) => void got.push(d.data) }));
      await s.publish('items.x.update', new RawJson('{"a": [1, "b"], "c": null, "d": {"e": 1.5}}'), { id: 'enc-1' });
      await s.publish('items.x.update', { plain: true }, { id: 'enc-2' });
      await waitFor(() => got.length === 2);
      expect(got).toEqual([{ a: [1, 'b'], c: null, d: { e: 1.5 } }, { plain: true }]);
    });

    it('gives every group every event, including events published before the group existed', async () => {
      const s = await m.eventStream('ITEMS', { subjects: ['items.>'] });
      for (let i = 0; i < 20; i++) await s.publish(`items.c${i % 3}.create`, { i }, { id: `e${i}` });
      const g1: number[] = [];
      const g2: number[] = [];
      track(await s.subscribe<{ i: number }>({ durable: 'g1', handler: async (d) => void g1.push(d.data.i) }));
      track(await s.subscribe<{ i: number }>({ durable: 'g2', handler: async (d) => void g2.push(d.data.i) }));
      await waitFor(() => g1.length === 20 && g2.length === 20);
      expect(g1).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect(g2).toEqual(g1);
    });

    it('resumes a group where it left after a restart: no re-handling, no loss', async () => {
      const s = await m.eventStream('ITEMS', { subjects: ['items.>'] });
      const seen: string[] = [];
      const handler = async (d: Delivery) => void seen.push(d.id);
      for (let i = 0; i < 10; i++) await s.publish('items.x.create', i, { id: `r${i}` });
      const first = await s.subscribe({ durable: 'rev', handler });
      await waitFor(() => seen.length === 10);
      await first.stop();
      for (let i = 10; i < 20; i++) await s.publish('items.x.create', i, { id: `r${i}` });
      await sleep(100);
      expect(seen).toHaveLength(10); // stopped: nothing handled
      track(await s.subscribe({ durable: 'rev', handler }));
      await waitFor(() => seen.length >= 20);
      await sleep(300);
      expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => `r${i}`));
    });

    it('handles an event published twice with the same id once', async () => {
      const s = await m.eventStream('ITEMS', { subjects: ['items.>'] });
      const seen: string[] = [];
      track(await s.subscribe({ durable: 'rev', handler: async (d) => void seen.push(d.id) }));
      await s.publish('items.x.update', { v: 1 }, { id: 'dup' });
      await s.publish('items.x.update', { v: 1 }, { id: 'dup' });
      await s.publish('items.x.update', { v: 2 }, { id: 'next' });
      await waitFor(() => seen.length >= 2);
      await sleep(300);
      expect(seen).toEqual(['dup', 'next']);
    });

    it('filters a group by subject', async () => {
      const s = await m.eventStream('ITEMS', { subjects: ['items.>'] });
      const seen: string[] = [];
      track(await s.subscribe({ durable: 'only-a', filterSubject: 'items.a.*', handler: async (d) => void seen.push(d.subject) }));
      await s.publish('items.a.create', 1, { id: 'f1' });
      await s.publish('items.b.create', 2, { id: 'f2' });
      await s.publish('items.a.delete', 3, { id: 'f3' });
      await waitFor(() => seen.length === 2);
      await sleep(200);
      expect(seen).toEqual(['items.a.create', 'items.a.delete']);
    });

    it('dead-letters an event per group after maxDeliver failures; other groups are unaffected', async () => {
      const s = await m.eventStream('ITEMS', { subjects: ['items.>'] });
      const failing: number[] = [];
      const ok: string[] = [];
      const fail = async (d: Delivery) => {
        failing.push(d.deliveryCount);
        throw new Error(`cannot record ${d.id}`);
      };
      track(await s.subscribe({ durable: 'fragile', maxDeliver: 2, backoffMs: [50], handler: fail }));
      track(await s.subscribe({ durable: 'sturdy', handler: async (d) => void ok.push(d.id) }));
      await s.publish('items.x.update', {}, { id: 'poison' });
      await waitFor(() => failing.length === 2 && ok.length === 1);
      const dead = await deadLettersOf(s);
      expect(dead).toEqual([expect.objectContaining({ id: 'poison', reason: 'cannot record poison', deliveryCount: 2 })]);
      await sleep(300);
      expect(failing).toEqual([1, 2]);
    });
  });
}
