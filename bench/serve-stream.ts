// node --expose-gc --import tsx bench/serve-stream.ts (forked by bench/stream.ts): the embedded platform in this
// process over fresh databases `vellum_<service>_stream` on BENCH_DATABASE_URL's server; answers the parent's
// 'stats' message with its memory (after a GC) and the revision feed's series, 'commits' with when each revision
// was committed (the revisions writer's notice after its COMMIT).
import path from 'node:path';
import { Client } from 'pg';
import { createLogger } from '@vellum/logger';
import { loadLocalConfig, startPlatform } from '@vellum/local';
import { Registry } from '@vellum/metrics';

const server = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const databases = { auth: 'vellum_auth_stream', revisions: 'vellum_revisions_stream', items: 'vellum_items_stream' };

async function value(registry: Registry, name: string): Promise<number> {
  const m = (await registry.getMetricsAsJSON()).find((x) => x.name === name);
  return Number(m?.values[0]?.value ?? 0);
}

(async () => {
  const admin = new Client({ connectionString: server });
  await admin.connect();
  for (const db of Object.values(databases)) await admin.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
  await admin.end();
  const registry = new Registry();
  const platform = await startPlatform({
    config: loadLocalConfig({ DATABASE_URL: server, DATA_DIR: path.resolve('.cache/bench-stream'), PORT: '0', LOG_LEVEL: 'warn', METRICS_PORT: '0' }),
    logger: createLogger({ name: 'bench', level: 'warn' }),
    databases,
    metrics: registry,
    // STREAM_CONFIG='{"SETTING":"value"}': the platform's settings for this run (e.g. STREAM_BATCH_INTERVAL)
    overrides: {
      ADMIN_EMAIL: 'bench@example.com',
      ADMIN_PASSWORD: 'bench-password-1',
      RATE_LIMITER_ENABLED: 'false',
      LOGIN_STALL_TIME: '0',
      ...(JSON.parse(process.env.STREAM_CONFIG ?? '{}') as Record<string, string>),
    },
  });
  // when each revision was committed: the revisions writer's notice after each COMMIT (the bucket the replicas tell
  // each other through), then the ids that became visible, read in turn
  const committedAt: Record<number, number> = {};
  const watcher = new Client({ connectionString: platform.databaseUrls.revisions });
  await watcher.connect();
  let last = Number((await watcher.query<{ m: string | null }>('SELECT max(id)::text AS m FROM revisions')).rows[0]!.m ?? 0);
  let reads = Promise.resolve();
  let stopping = false;
  const notices = await platform.messaging.keyValue<unknown>('vellum_revisions_recorded');
  const watch = await notices.watch(() => {
    const at = Date.now();
    reads = reads.then(async () => {
      if (stopping) return;
      const { rows } = await watcher.query<{ id: string }>('SELECT id::text FROM revisions WHERE id > $1 ORDER BY id', [last]);
      for (const r of rows) committedAt[Number(r.id)] = at;
      if (rows.length) last = Number(rows.at(-1)!.id);
    });
  });
  process.on('message', async (m: string) => {
    if (m === 'commits') return void process.send!(committedAt);
    if (m === 'stop') {
      stopping = true;
      await watch.stop();
      await reads;
      await watcher.end();
      await platform.stop();
      process.exit(0);
    }
    (global as { gc?: () => void }).gc?.();
    const mem = process.memoryUsage();
    process.send!({
      rss: mem.rss,
      heapUsed: mem.heapUsed,
      streams: await value(registry, 'vellum_revision_streams'),
      reads: await value(registry, 'vellum_revision_feed_reads'),
      revisions: await value(registry, 'vellum_revision_feed_revisions'),
    });
  });
  process.send!({ url: platform.url });
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
