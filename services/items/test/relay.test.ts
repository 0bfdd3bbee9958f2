import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ITEMS_STREAM, ITEMS_SUBJECTS, itemChangeEventSchema, type ItemChangeEvent } from '@vellum/contracts';
import { createInProcessMessaging, type Messaging } from '@vellum/messaging';
import { silentLogger, useMigratedDatabase } from '@vellum/testing';
import { createTokenVerifier } from '@vellum/tokens';
import { AccessRules, createApp, createItemsPool, createPrisma, loadItemsConfig, startItems } from '../src';
import { MIGRATIONS, testKeys } from './helpers';

const logger = silentLogger('items-test');

async function collect(messaging: Messaging, durable: string) {
  const seen: ItemChangeEvent[] = [];
  const stream = await messaging.eventStream(ITEMS_STREAM, { subjects: ITEMS_SUBJECTS });
  const sub = await stream.subscribe<unknown>({
    durable,
    handler: async (d) => {
      const e = itemChangeEventSchema.parse(d.data);
      // item events only (a collection's creation has its vellum_collections event too)
      if (!e.collection.startsWith('vellum_')) seen.push(e);
    },
  });
  const until = async (n: number, ms = 5000) => {
    const end = Date.now() + ms;
    while (seen.length < n && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    return seen;
  };
  return { seen, until, stop: () => sub.stop() };
}

describe('startItems with the shared in-process messaging', () => {
  const db = useMigratedDatabase(MIGRATIONS);

  it('publishes each committed write to the ITEMS stream through the outbox relay', async () => {
    const messaging = createInProcessMessaging();
    const keys = testKeys();
    const config = loadItemsConfig({ DATABASE_URL: db.url, PORT: '0', OUTBOX_POLL_INTERVAL: '200', HEALTH_TOKEN: 'h' });
    const running = await startItems(config, { logger, messaging, keySource: keys.keySource });
    const events = await collect(messaging, 'revisions-test');
    try {
      const admin = { Authorization: `Bearer ${keys.sign({ id: randomUUID(), role: 'admin-role', admin_access: true })}` };
      expect((await request(running.url).get('/server/ping')).text).toBe('pong');
      expect(
        (
          await request(running.url)
            .post('/collections')
            .set(admin)
            .send({ collection: 'live', fields: [{ field: 't', type: 'string' }] })
        ).status,
      ).toBe(200);
      const c = await request(running.url).post('/items/live').set(admin).send({ t: 'one' });
      await request(running.url).patch(`/items/live/${c.body.data.id}`).set(admin).send({ t: 'two' });
      await request(running.url).delete(`/items/live/${c.body.data.id}`).set(admin);
      const seen = await events.until(3);
      expect(seen.map((e) => [e.action, e.data, e.delta])).toEqual([
        ['create', { id: c.body.data.id, t: 'one' }, { t: 'one' }],
        ['update', { id: c.body.data.id, t: 'two' }, { t: 'two' }],
        ['delete', null, null],
      ]);
      const health = await request(running.url).get('/server/health').set('Authorization', 'Bearer h');
      expect(health.status).toBe(200);
      expect(Object.keys(JSON.parse(health.text).checks).sort()).toEqual(['database', 'messaging', 'outbox']);
      expect(JSON.parse((await request(running.url).get('/server/health')).text)).toEqual({ status: 'ok' });
    } finally {
      await events.stop();
      await running.stop();
      await messaging.close();
    }
  });

  it('a crash between commit and publish loses no event: the restarted relay publishes it', async () => {
    // "Before the crash": the app commits writes, but no relay ever publishes them (the process dies first).
    const keys = testKeys();
    const pool = createItemsPool(db.url, 2);
    const prisma = createPrisma(db.url, 2);
    const { app } = createApp({ pool, prisma, rules: new AccessRules(), verifier: createTokenVerifier(keys.keySource), logger });
    const admin = { Authorization: `Bearer ${keys.sign({ id: randomUUID(), role: 'admin-role', admin_access: true })}` };
    await request(app)
      .post('/collections')
      .set(admin)
      .send({ collection: 'crashy', fields: [{ field: 't', type: 'string' }] });
    const created = await request(app)
      .post('/items/crashy')
      .set(admin)
      .send([{ t: 'a' }, { t: 'b' }]);
    expect(created.status).toBe(200);
    const pending = await pool.query(`SELECT "id" FROM "outbox" WHERE "published_at" IS NULL AND "subject" LIKE 'items.crashy.%' ORDER BY "seq"`);
    expect(pending.rowCount).toBe(2);
    await Promise.all([pool.end(), prisma.$disconnect()]);

    // "After the restart": a fresh service on the same database, new messaging.
    const messaging = createInProcessMessaging();
    const events = await collect(messaging, 'revisions-test');
    const running = await startItems(loadItemsConfig({ DATABASE_URL: db.url, PORT: '0', OUTBOX_POLL_INTERVAL: '200' }), {
      logger,
      messaging,
      keySource: keys.keySource,
    });
    try {
      const seen = await events.until(2);
      expect(seen.map((e) => [e.id, e.collection, e.action, e.data?.t])).toEqual([
        [pending.rows[0].id, 'crashy', 'create', 'a'],
        [pending.rows[1].id, 'crashy', 'create', 'b'],
      ]);
      // the relay marks the rows once the consumers have settled them, just after they see them: wait for it (≤ 10 s)
      const check = createItemsPool(db.url, 1);
      const unpublished = async () => (await check.query(`SELECT count(*)::int AS n FROM "outbox" WHERE "published_at" IS NULL`)).rows[0].n as number;
      let left = await unpublished();
      for (let i = 0; i < 100 && left > 0; i++) left = await new Promise((r) => setTimeout(r, 100)).then(unpublished);
      await check.end();
      expect(left).toBe(0);
    } finally {
      await events.stop();
      await running.stop();
      await messaging.close();
    }
  });
});
