import { currentRequestId } from '@vellum/logger';
import type { DeadLetter, Delivery, Messaging, Subscription } from '../src';

/** A messaging instance for one test; `destroy` (when present) removes everything it created. */
export type MessagingFactory = () => Promise<Messaging & { destroy?(): Promise<void> }>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor(cond: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

/** Polls the dead letters until there is at least one (or 5 s passed). */
async function deadLettersOf(source: {
  deadLetters(limit?: number): Promise<DeadLetter[]>;
}): Promise<DeadLetter[]> {
  const deadline = Date.now() + 5000;
  let dead = await source.deadLetters();
  while (dead.length === 0 && Date.now() < deadline) dead = await sleep(20).then(() => source.deadLetters());
  return dead;
}

/** Bounds a stop() so that a test whose handler hangs fails instead of hanging the run. */
const stopWithin = (s: Subscription, ms = 5000): Promise<void> =>
  Promise.race([
    s.stop(),
    sleep(ms).then(() => Promise.reject(new Error(`stop() did not finish within ${ms} ms`))),
  ]);

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

let seq = 0;
const uid = (p: string) => `${p}-${Date.now().toString(36)}-${++seq}`;

/** The behaviour every Messaging implementation must have; run against each one. */
export function describeMessagingContract(name: string, factory: MessagingFactory): void {
  describe(`Messaging contract: ${name}`, () => {
    let m: Awaited<ReturnType<MessagingFactory>>;
    const subs: Subscription[] = [];
    const track = (s: Subscription) => (subs.push(s), s);

    beforeEach(async () => {
      m = await factory();
    });

    afterEach(async () => {
      try {
        await Promise.all(subs.splice(0).map((s) => stopWithin(s)));
      } finally {
        await m.destroy?.();
        await m.close();
      }
    });

    describe('work queue', () => {
      it('delivers jobs with id, subject, data, headers and deliveryCount 1, and removes them once acked', async () => {
        const q = await m.workQueue('MAIL', { subjects: ['mail.>'] });
        await q.publish(
          'mail.send',
          { to: 'a@example.com' },
          { id: 'job-1', headers: { 'x-request-id': 'req-1' } },
        );
        await q.publish('mail.send', { to: 'b@example.com' }, { id: 'job-2' });
        const got: Delivery<{ to: string }>[] = [];
        const contexts: (string | undefined)[] = [];
        track(
          await q.consume<{ to: string }>({
            durable: 'mailer',
            handler: async (d) => {
              contexts.push(currentRequestId());
              got.push(d);
            },
          }),
        );
        await waitFor(() => got.length === 2, 10_000, 'two jobs');
        // Handlers run in the request context of the message (its x-request-id, else the message id).
        expect(contexts).toEqual(['req-1', 'job-2']);
        expect(got.map((d) => [d.id, d.subject, d.data.to, d.deliveryCount])).toEqual([
          ['job-1', 'mail.send', 'a@example.com', 1],
          ['job-2', 'mail.send', 'b@example.com', 1],
        ]);
        expect(got[0].headers['x-request-id']).toBe('req-1');
        await subs.pop()!.stop();
        // acked jobs are gone: a restarted consumer gets nothing old, only new work
        const again: string[] = [];
        track(await q.consume({ durable: 'mailer', handler: async (d) => void again.push(d.id) }));
        await q.publish('mail.send', {}, { id: 'job-3' });
        await waitFor(() => again.length === 1);
        await sleep(200);
        expect(again).toEqual(['job-3']);
      });

      it('redelivers a job whose consumer died (never acked within ackWait) to another consumer', async () => {
        const q = await m.workQueue('MAIL', { subjects: ['mail.>'] });
        const gate = deferred();
        const a: Delivery[] = [];
        const b: Delivery[] = [];
        track(
          await q.consume({
            durable: 'mailer',
            ackWaitMs: 400,
            handler: async (d) => {
              a.push(d);
              await gate.promise; // hangs like a dead consumer
            },
          }),
        );
        try {
          await q.publish('mail.send', { n: 1 }, { id: 'stuck' });
          await waitFor(() => a.length === 1, 10_000, 'first delivery');
          track(await q.consume({ durable: 'mailer', ackWaitMs: 400, handler: async (d) => void b.push(d) }));
          await waitFor(() => b.length === 1, 10_000, 'redelivery to the second consumer');
          expect(b[0].id).toBe('stuck');
          expect(b[0].deliveryCount).toBe(2);
          await sleep(1000); // > ackWait: b acked, so no further redelivery
          expect(a.length + b.length).toBe(2);
        } finally {
          gate.resolve(); // a failing test must not leave the handler hanging
        }
      });

      it('dead-letters a job that fails maxDeliver times with the error message, and never delivers it again', async () => {
        const q = await m.workQueue('MAIL', { subjects: ['mail.>'] });
        const times: number[] = [];
        const counts: number[] = [];
        track(
          await q.consume({
            durable: 'mailer',
            maxDeliver: 3,
            backoffMs: [150, 300],
            handler: async (d) => {
              times.push(Date.now());
              counts.push(d.deliveryCount);
              throw new Error('smtp down');
            },
          }),
        );
        await q.publish('mail.send', { to: 'x' }, { id: 'doomed' });
        await waitFor(() => counts.length === 3, 10_000, 'three attempts');
        const dead = await deadLettersOf(q);
        expect(dead).toHaveLength(1);
        expect(dead[0]).toMatchObject({
          id: 'doomed',
          subject: 'mail.send',
          data: { to: 'x' },
          reason: 'smtp down',
          deliveryCount: 3,
        });
        expect(Number.isNaN(Date.parse(dead[0].at))).toBe(false);
        expect(counts).toEqual([1, 2, 3]);
        expect(times[1] - times[0]).toBeGreaterThanOrEqual(130); // first backoff
        expect(times[2] - times[1]).toBeGreaterThanOrEqual(280); // second backoff
        await sleep(800);
        expect(counts).toHaveLength(3);
      });

      it('term() dead-letters at once without retries', async () => {
        const q = await m.workQueue('MAIL', { subjects: ['mail.>'] });
        const seen: number[] = [];
        track(
          await q.consume({
            durable: 'mailer',
            backoffMs: [50],
            handler: async (d) => {
              seen.push(d.deliveryCount);
              await d.term('invalid address');
              throw new Error('ignored: already settled');
            },
          }),
        );
        await q.publish('mail.send', { to: 'nobody' }, { id: 'bad' });
        await waitFor(() => seen.length === 1);
        const dead = await deadLettersOf(q);
        expect(dead).toEqual([
          expect.objectContaining({ id: 'bad', reason: 'invalid address', deliveryCount: 1 }),
        ]);
        await sleep(400);
        expect(seen).toEqual([1]);
      });

      it('replays a dead letter: delivered again with its data and headers, no longer among the dead letters', async () => {
        const q = await m.workQueue('MAIL', { subjects: ['mail.>'] });
        const seen: { id: string; data: unknown; headers: Record<string, string> }[] = [];
        track(
          await q.consume({
            durable: 'mailer',
            handler: async (d) => {
              seen.push({ id: d.id, data: d.data, headers: d.headers });
              if (seen.length === 1) await d.term('550 rejected');
            },
          }),
        );
        await q.publish('mail.send', { job: 7 }, { id: 'job-7', headers: { 'x-request-id': 'r7' } });
        expect((await deadLettersOf(q)).map((d) => d.id)).toEqual(['job-7']);
        expect(await q.replayDeadLetter('job-7')).toBe(true);
        await waitFor(() => seen.length === 2, 10_000, 'the replayed job');
        expect(seen[1].data).toEqual({ job: 7 });
        expect(seen[1].headers['x-request-id']).toBe('r7');
        expect(await q.deadLetters()).toEqual([]);
        expect(await q.replayDeadLetter('job-7')).toBe(false);
      });

      it('stores a job published twice with the same id once', async () => {
        const q = await m.workQueue('MAIL', { subjects: ['mail.>'] });
        await q.publish('mail.send', { v: 1 }, { id: 'same' });
        await q.publish('mail.send', { v: 2 }, { id: 'same' });
        await q.publish('mail.send', { v: 3 }, { id: 'other' });
        const got: unknown[] = [];
        track(await q.consume({ durable: 'mailer', handler: async (d) => void got.push(d.data) }));
        await waitFor(() => got.length === 2);
        await sleep(300);
        expect(got).toEqual([{ v: 1 }, { v: 3 }]);
      });

      it('runs at most `concurrency` handlers at once per member', async () => {
        const q = await m.workQueue('MAIL', { subjects: ['mail.>'] });
        let running = 0;
        let peak = 0;
        let done = 0;
        track(
          await q.consume({
            durable: 'mailer',
            concurrency: 3,
            handler: async () => {
              peak = Math.max(peak, ++running);
              await sleep(30);
              running--;
              done++;
            },
          }),
        );
        await Promise.all(Array.from({ length: 12 }, (_, i) => q.publish('mail.send', i, { id: `c${i}` })));
        await waitFor(() => done === 12);
        expect(peak).toBe(3);
      });

      it('rejects a subject outside the stream', async () => {
        const q = await m.workQueue('MAIL', { subjects: ['mail.>'] });
        await expect(q.publish('other.send', {}, { id: uid('x') })).rejects.toThrow(Error);
      });
    });

    describe('event stream', () => {
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
        for (let i = 0; i < ids.length; i += 50)
          await Promise.all(
            ids.slice(i, i + 50).map((id, j) => s.publish('items.articles.update', { n: i + j }, { id })),
          );
        await waitFor(() => handled.a.length + handled.b.length >= 200, 20_000, '200 events');
        await sleep(300);
        const all = [...handled.a, ...handled.b];
        expect(all).toHaveLength(200);
        expect(new Set(all)).toEqual(new Set(ids));
        expect(handled.a.length).toBeGreaterThan(0);
        expect(handled.b.length).toBeGreaterThan(0);
      });

      it('gives every group every event, including events published before the group existed', async () => {
        const s = await m.eventStream('ITEMS', { subjects: ['items.>'] });
        for (let i = 0; i < 20; i++) await s.publish(`items.c${i % 3}.create`, { i }, { id: `e${i}` });
        const g1: number[] = [];
        const g2: number[] = [];
        track(
          await s.subscribe<{ i: number }>({ durable: 'g1', handler: async (d) => void g1.push(d.data.i) }),
        );
        track(
          await s.subscribe<{ i: number }>({ durable: 'g2', handler: async (d) => void g2.push(d.data.i) }),
        );
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
        track(
          await s.subscribe({
            durable: 'only-a',
            filterSubject: 'items.a.*',
            handler: async (d) => void seen.push(d.subject),
          }),
        );
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
        track(
          await s.subscribe({
            durable: 'fragile',
            maxDeliver: 2,
            backoffMs: [50],
            handler: async (d) => {
              failing.push(d.deliveryCount);
              throw new Error(`cannot record ${d.id}`);
            },
          }),
        );
        track(await s.subscribe({ durable: 'sturdy', handler: async (d) => void ok.push(d.id) }));
        await s.publish('items.x.update', {}, { id: 'poison' });
        await waitFor(() => failing.length === 2 && ok.length === 1);
        const dead = await deadLettersOf(s);
        expect(dead).toEqual([
          expect.objectContaining({ id: 'poison', reason: 'cannot record poison', deliveryCount: 2 }),
        ]);
        await sleep(300);
        expect(failing).toEqual([1, 2]);
      });
    });

    describe('key-value map', () => {
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

    it('reports health', async () => {
      expect(await m.health()).toEqual({ status: 'ok' });
    });
  });
}
