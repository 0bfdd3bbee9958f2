import { createInProcessMessaging } from '../src';
import { describeMessagingContract } from './messaging-contract';

describeMessagingContract('in-process', async () => createInProcessMessaging());

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
