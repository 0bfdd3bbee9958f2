import type { Messaging } from '@vellum/messaging';
import { createPublishers, publishRows, type Publisher } from './publish-rows';
import type { OutboxDestination, OutboxRecord } from './relay-types';

const destinations: Record<string, OutboxDestination> = {
  MAIL: { type: 'queue', subjects: ['mail.>'] },
  ITEMS: { type: 'stream', subjects: ['items.>'] },
  kv: { type: 'kv' },
};
const row = (id: string, destination = 'MAIL', payload: unknown = { n: id }): OutboxRecord => ({
  id,
  destination,
  subject: `s.${id}`,
  payload,
  headers: { h: id },
});

describe('createPublishers', () => {
  it('declares each destination once, publishes with the row id, deletes a KV key for a null payload', async () => {
    const publish = jest.fn().mockResolvedValue(undefined);
    const kv = { put: jest.fn().mockResolvedValue(undefined), delete: jest.fn().mockResolvedValue(undefined) };
    const messaging = {
      workQueue: jest.fn().mockResolvedValue({ publish }),
      eventStream: jest.fn().mockResolvedValue({ publish }),
      keyValue: jest.fn().mockResolvedValue(kv),
    };
    const publisherFor = createPublishers(messaging as unknown as Messaging, destinations);
    const onSettled = () => undefined;
    await (
      await publisherFor('MAIL')
    )(row('a'), onSettled);
    await (
      await publisherFor('MAIL')
    )(row('b'));
    expect(messaging.workQueue).toHaveBeenCalledTimes(1);
    expect(messaging.workQueue).toHaveBeenCalledWith('MAIL', { subjects: ['mail.>'] });
    expect(publish).toHaveBeenCalledWith('s.a', { n: 'a' }, { id: 'a', headers: { h: 'a' }, onSettled });
    await (
      await publisherFor('ITEMS')
    )(row('c', 'ITEMS'));
    expect(messaging.eventStream).toHaveBeenCalledWith('ITEMS', { subjects: ['items.>'] });
    await (
      await publisherFor('kv')
    )(row('d', 'kv'));
    await (
      await publisherFor('kv')
    )(row('e', 'kv', null));
    expect(kv.put).toHaveBeenCalledWith('s.d', { n: 'd' });
    expect(kv.delete).toHaveBeenCalledWith('s.e');
    await expect(publisherFor('NOPE')).rejects.toThrow('outbox destination "NOPE" is not configured');
  });
  it('forgets a destination whose declaration failed, so the next row tries again', async () => {
    const messaging = { workQueue: jest.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValue({ publish: jest.fn() }) };
    const publisherFor = createPublishers(messaging as unknown as Messaging, destinations);
    await expect(publisherFor('MAIL')).rejects.toThrow('down');
    await new Promise((r) => setImmediate(r));
    await expect(publisherFor('MAIL')).resolves.toEqual(expect.any(Function));
    expect(messaging.workQueue).toHaveBeenCalledTimes(2);
  });
});

describe('publishRows', () => {
  const ok: Publisher = async () => undefined;
  it('publishes in order; done = the rows before the first failure (in-process: nothing after it is sent)', async () => {
    const seen: string[] = [];
    const publisherFor = async () =>
      (async (r: OutboxRecord) => {
        seen.push(r.id);
        if (r.id === 'b') throw new Error('nope');
      }) as Publisher;
    const out = await publishRows([row('a'), row('b'), row('c')], { publisherFor, destinations, timeoutMs: 1000, handOver: null });
    expect(seen).toEqual(['a', 'b', 'c']); // sent together: c is published again later under its id
    expect(out).toEqual({ done: ['a'], handedOver: [], failure: { id: 'b', err: new Error('nope') } });
    seen.length = 0;
    const inTurn = await publishRows([row('a'), row('b'), row('c')], { publisherFor, destinations, timeoutMs: 1000, handOver: () => () => undefined });
    expect(seen).toEqual(['a', 'b']);
    expect(inTurn).toEqual({ done: [], handedOver: ['a', 'b'], failure: { id: 'b', err: new Error('nope') } });
  });
  it('sends queue and stream rows without waiting for their acknowledgements; a KV row once the rows before it are acknowledged', async () => {
    const events: string[] = [];
    const acks = new Map<string, () => void>();
    const publisherFor = async () =>
      ((r: OutboxRecord) => {
        events.push(`send ${r.id}`);
        return new Promise<void>((resolve) => acks.set(r.id, () => (events.push(`ack ${r.id}`), resolve())));
      }) as Publisher;
    const outcome = publishRows([row('a'), row('b', 'ITEMS'), row('k', 'kv'), row('c')], { publisherFor, destinations, timeoutMs: 1000, handOver: null });
    const tick = () => new Promise((r) => setImmediate(r));
    await tick();
    expect(events).toEqual(['send a', 'send b']); // both out before either is acknowledged; the KV row waits
    acks.get('b')!();
    acks.get('a')!();
    await tick();
    expect(events).toEqual(['send a', 'send b', 'ack b', 'ack a', 'send k']);
    acks.get('k')!();
    await tick();
    acks.get('c')!();
    expect(await outcome).toEqual({ done: ['a', 'b', 'k', 'c'], handedOver: [] });
  });
  it('hands queue and stream rows over (marked once settled) but marks KV rows at once', async () => {
    const handOver = jest.fn(() => () => undefined);
    const out = await publishRows([row('a'), row('b', 'kv'), row('c', 'ITEMS')], { publisherFor: async () => ok, destinations, timeoutMs: 1000, handOver });
    expect(out).toEqual({ done: ['b'], handedOver: ['a', 'c'] });
    expect(handOver.mock.calls).toEqual([['a'], ['c']]);
  });
  it('counts a publish, or a publisher, that does not answer in time as failed', async () => {
    const hang = () => new Promise<never>(() => undefined);
    const slow = await publishRows([row('a')], { publisherFor: async () => hang, destinations, timeoutMs: 20, handOver: null });
    expect(slow.failure?.err.message).toBe('publish: no answer within 20 ms');
    const noMessaging = await publishRows([row('a')], { publisherFor: hang, destinations, timeoutMs: 20, handOver: null });
    expect(noMessaging.failure?.err.message).toBe('messaging: no answer within 20 ms');
  });
});
