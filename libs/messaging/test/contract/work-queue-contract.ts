import { currentRequestId } from '@vellum/logger';
import type { Delivery } from '../../src';
import { deadLettersOf, deferred, sleep, uid, waitFor, type ContractSubject } from './contract-support';

/** The work queue part of the contract. */
export function describeWorkQueueContract(subject: () => ContractSubject): void {
  describe('work queue', () => {
    let { m, track, subs } = {} as ContractSubject;
    beforeEach(() => void ({ m, track, subs } = subject()));

    it('delivers jobs with id, subject, data, headers and deliveryCount 1, and removes them once acked', async () => {
      const q = await m.workQueue('MAIL', { subjects: ['mail.>'] });
      await q.publish('mail.send', { to: 'a@example.com' }, { id: 'job-1', headers: { 'x-request-id': 'req-1' } });
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
      const hang = async (d: Delivery) => void (a.push(d), await gate.promise); // hangs like a dead consumer
      track(await q.consume({ durable: 'mailer', ackWaitMs: 400, handler: hang }));
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
      const fail = async (d: Delivery) => {
        times.push(Date.now());
        counts.push(d.deliveryCount);
        throw new Error('smtp down');
      };
      track(await q.consume({ durable: 'mailer', maxDeliver: 3, backoffMs: [150, 300], handler: fail }));
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
      const reject = async (d: Delivery) => {
        seen.push(d.deliveryCount);
        await d.term('invalid address');
        throw new Error('ignored: already settled');
      };
      track(await q.consume({ durable: 'mailer', backoffMs: [50], handler: reject }));
      await q.publish('mail.send', { to: 'nobody' }, { id: 'bad' });
      await waitFor(() => seen.length === 1);
      const dead = await deadLettersOf(q);
      expect(dead).toEqual([expect.objectContaining({ id: 'bad', reason: 'invalid address', deliveryCount: 1 })]);
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
}
