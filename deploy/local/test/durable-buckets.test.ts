import { Client } from 'pg';
import { createLogger } from '@vellum/logger';
import { databaseUrl, dropDatabase, ensureDatabases } from '@vellum/db';
import { MAIL_SENT_BUCKET } from '@vellum/mailer';
import { uniqueId } from '@vellum/testing';
import { openDurableBuckets } from '../src/durable-buckets';
import { createEmbeddedMessaging } from '../src/embedded-messaging';

// The embedded topology's in-process messaging keeps the mailer's sent-job ids in PostgreSQL: what one process
// put, the next one (a restart after kill -9) reads, from a real server.
const server = () => process.env.TEST_DATABASE_URL!;
const logger = createLogger({ name: 'durable-buckets-test', level: 'silent' });

describe('durable buckets of the embedded messaging (PostgreSQL)', () => {
  const name = uniqueId('vellum_messaging_test')
    .replace(/[^a-z0-9_]/gi, '_')
    .toLowerCase();
  let url: string;
  beforeAll(async () => {
    await ensureDatabases(server(), [name]);
    url = databaseUrl(server(), name);
  });
  afterAll(async () => {
    await dropDatabase(server(), name).catch(() => undefined);
  });

  it('keeps the sent-job ids across a restart of the messaging; other buckets stay in memory', async () => {
    const first = await openDurableBuckets(url, logger);
    const m1 = createEmbeddedMessaging(first.stores);
    const sent = await m1.keyValue<{ sent_at: string }>(MAIL_SENT_BUCKET);
    await sent.put('job-a', { sent_at: '2026-11-26T00:00:00.000Z' });
    await sent.put('job-b', { sent_at: '2026-11-26T00:00:01.000Z' });
    await sent.delete('job-b');
    await (await m1.keyValue<number>('vellum_access')).put('public', 1);
    await m1.close();
    await first.close();

    const second = await openDurableBuckets(url, logger); // migrated already: nothing to apply
    const m2 = createEmbeddedMessaging(second.stores);
    const again = await m2.keyValue<{ sent_at: string }>(MAIL_SENT_BUCKET);
    expect(await again.get('job-a')).toEqual({ sent_at: '2026-11-26T00:00:00.000Z' });
    expect(await again.get('job-b')).toBeUndefined();
    expect(await (await m2.keyValue<number>('vellum_access')).get('public')).toBeUndefined();
    await again.put('job-a', { sent_at: '2026-11-26T00:00:02.000Z' }); // an overwrite is one row
    await m2.close();
    await second.close();

    const db = new Client({ connectionString: url });
    await db.connect();
    try {
      const { rows } = await db.query(`SELECT "bucket", "key", "value" FROM "key_value" ORDER BY "key"`);
      expect(rows).toEqual([{ bucket: MAIL_SENT_BUCKET, key: 'job-a', value: '{"sent_at":"2026-11-26T00:00:02.000Z"}' }]);
    } finally {
      await db.end();
    }
  });

  it('forgets sent-job ids older than the bucket’s maximum age: not loaded, and pruned from the table', async () => {
    const db = new Client({ connectionString: url });
    await db.connect();
    try {
      const first = await openDurableBuckets(url, logger);
      const m1 = createEmbeddedMessaging(first.stores);
      const sent = await m1.keyValue<{ sent_at: string }>(MAIL_SENT_BUCKET, { maxAgeMs: 3_600_000 });
      await sent.put('old', { sent_at: 'then' });
      await sent.put('young', { sent_at: 'now' });
      await m1.close();
      await first.close();
      await db.query(`UPDATE "key_value" SET "updated_at" = now() - interval '61 minutes' WHERE "key" = 'old'`);
      await db.query(`UPDATE "key_value" SET "updated_at" = now() - interval '59 minutes' WHERE "key" = 'young'`);

      const second = await openDurableBuckets(url, logger);
      const m2 = createEmbeddedMessaging(second.stores);
      const again = await m2.keyValue<{ sent_at: string }>(MAIL_SENT_BUCKET, { maxAgeMs: 3_600_000 });
      expect(await again.get('old')).toBeUndefined();
      expect(await again.get('young')).toEqual({ sent_at: 'now' });
      const { rows } = await db.query(`SELECT "key" FROM "key_value" WHERE "key" IN ('old', 'young') ORDER BY "key"`);
      expect(rows).toEqual([{ key: 'young' }]);
      await m2.close();
      await second.close();
    } finally {
      await db.end();
    }
  });
});
