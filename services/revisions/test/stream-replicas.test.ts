import { connectNatsMessaging, createInProcessMessaging, type Messaging } from '@vellum/messaging';
import { openSse, testNatsUrl, uniqueId } from '@vellum/testing';
import { createStreamHarness, access, idsOf, startReplica, type StreamHarness } from './stream-support';
import { itemEvent, signToken } from './helpers';

const READER = `Bearer ${signToken({ id: 'u-reader', role: 'r-reader' })}`;
const OTHER = `Bearer ${signToken({ id: 'u-other', role: 'r-other' })}`;
const change = (collection: string, item: string) => itemEvent({ collection, item, action: 'create', data: { id: item }, at: new Date().toISOString() });

/**
 * Two revisions replicas over one database, each with its own feed: a revision recorded by one reaches the streams
 * of the other through the notices bucket (in memory: shared in-process messaging; NATS: two connections), and
 * each replica reads a batch once, whatever the number of its streams.
 */
function suite(name: string, connect: () => Promise<[Messaging, Messaging]>) {
  describe(name, () => {
    let h: StreamHarness;
    let messaging: [Messaging, Messaging];
    let replicas: Awaited<ReturnType<typeof startReplica>>[];
    beforeAll(async () => {
      h = await createStreamHarness();
      await h.setRules('r-reader', access('r-reader', { articles: { read: ['*'] } }));
      await h.setRules('r-other', access('r-other', { notes: { read: ['*'] } }));
      messaging = await connect();
      replicas = [await startReplica(h.pool, h.rules, messaging[0]), await startReplica(h.pool, h.rules, messaging[1])];
    });
    afterAll(async () => {
      for (const r of replicas ?? []) await r.stop();
      for (const m of messaging ?? []) await m.close();
      await h?.close();
    });

    it('streams on one replica get the revisions another replica records, one read per batch for all of them', async () => {
      const [a, b] = replicas;
      const streams = await Promise.all(
        Array.from({ length: 40 }, (_, i) => openSse(`${a!.url}/revisions/stream?fields=id,collection`, { authorization: i % 2 ? READER : OTHER })),
      );
      await new Promise((r) => setTimeout(r, 200));
      const reads = a!.feed.stats.reads;
      const t0 = Date.now();
      await b!.writer.write([change('articles', 'x1'), change('notes', 'y1'), change('secrets', 'z1')]);
      for (const s of streams) await s.until((e) => idsOf(e).length === 1, 5000);
      const ms = Date.now() - t0;
      await b!.writer.write([change('articles', 'x2')]);
      const readers = streams.filter((_, i) => i % 2);
      for (const s of readers) await s.until((e) => idsOf(e).length === 2, 5000);
      streams.forEach((s) => s.close());
      // each stream saw only what its role may read
      for (const [i, s] of streams.entries()) {
        const collections = s.events.map((e) => (JSON.parse(e.data) as { collection: string }).collection);
        expect(collections).toEqual(i % 2 ? ['articles', 'articles'] : ['notes']);
      }
      expect(a!.feed.stats.reads - reads).toBeLessThanOrEqual(4);
      expect(ms).toBeLessThan(2000);
    });
  });
}

suite('revision streams across replicas (in-process messaging)', async () => {
  const m = createInProcessMessaging();
  return [m, m];
});

const nats = testNatsUrl();
if (nats) {
  const prefix = uniqueId('feed');
  suite('revision streams across replicas (NATS)', async () => [
    await connectNatsMessaging({ servers: nats, name: 'feed-a', prefix }),
    await connectNatsMessaging({ servers: nats, name: 'feed-b', prefix }),
  ]);
}
