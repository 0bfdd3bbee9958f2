import {
  loadConfig,
  processVariables,
  databaseServiceVariables,
  queryLimitVariables,
  loadMessagingSettings,
  z,
  duration,
  int,
  type Env,
  type MessagingSettings,
} from '@vellum/config';
import { DEFAULT_RANDOM_PAGE_COST } from './data/pool';

const shape = {
  ...processVariables,
  ...databaseServiceVariables,
  /** Internal base URL of the auth service (its JWKS at /auth/.well-known/jwks.json). */
  AUTH_URL: z.string().url().default('http://127.0.0.1:8056'),
  ...queryLimitVariables,
  DB_POOL_MAX: int(10, { min: 1 }),
  /**
   * The planner's `random_page_cost` on the service's connections (src/data/pool.ts): 1.1, for history in memory or
   * on SSD; `database` leaves the database's own (PostgreSQL's default is 4, a spinning disk's).
   */
  DB_RANDOM_PAGE_COST: z
    .union([z.literal('database').transform(() => null), z.coerce.number().positive().finite()], { error: 'a positive number, or "database"' })
    .default(DEFAULT_RANDOM_PAGE_COST),
  /** Item events in flight (and so the largest batch written in one transaction). */
  REVISIONS_CONSUMER_CONCURRENCY: int(64, { min: 1 }),
  /**
   * How long an item change waits (parked) for the item's previous version to be recorded before it is recorded
   * anyway, out of order (an item's revisions follow the order its writes committed).
   */
  REVISIONS_ORDER_WAIT: duration('60s'),
  /** How long a list with `X-Vellum-Min-Version` waits for those revisions before it answers with `X-Vellum-Behind`. */
  REVISIONS_MIN_VERSION_WAIT: duration('2s'),
  /** `GET /revisions/stream`: a comment line after this long without an event, so proxies keep an idle stream open. */
  STREAM_HEARTBEAT: duration('15s'),
  /** `GET /revisions/stream`: at least this long between two batches of new revisions handed to the streams. */
  STREAM_BATCH_INTERVAL: duration('50ms'),
  /**
   * A list as it was (`GET /items/:c?at=`): `sql` answers every shape it can in SQL (as-of/sql-lists.ts); `keyed`
   * the key-ordered pages only, the rest rebuilt in memory; `general` always in memory (a before/after switch for
   * bench/as-of.ts: the answers are the same).
   */
  AS_OF_LISTS: z.enum(['sql', 'keyed', 'general']).default('sql'),
  /** Lists from this offset on use an index-only deferred join. */
  QUERY_DEFERRED_JOIN_OFFSET: int(1000, { min: 0 }),
  /** Retention: revisions older than this are pruned (unset: kept forever), except each item's newest REVISIONS_KEEP_LAST live ones (saves to a version not counted). */
  REVISIONS_RETENTION: duration().optional(),
  /** The newest revisions kept per item whatever their age (at least 1: an item's latest revision is never pruned). */
  REVISIONS_KEEP_LAST: int(1, { min: 1 }),
  /** Activity older than this is pruned once no revision refers to it (unset: kept forever). */
  ACTIVITY_RETENTION: duration().optional(),
  /** How often retention runs (on one replica at a time: an advisory lock). */
  RETENTION_INTERVAL: duration('1h'),
  /** Rows deleted per transaction. */
  RETENTION_BATCH_SIZE: int(1000, { min: 1, max: 100_000 }),
  /** How often the monthly partitions are checked: the open one closed once it holds a past month's rows. */
  PARTITION_ROLL_INTERVAL: duration('1h'),
  /** Archive every pruned row here first (NDJSON + gzip, a manifest per file); unset: pruned rows are not kept. */
  RETENTION_ARCHIVE_DIR: z.string().min(1).optional(),
};

export type RevisionsConfig = ReturnType<typeof loadConfig<typeof shape>>;

export function loadRevisionsConfig(env: Env = process.env): RevisionsConfig {
  return loadConfig(shape, env);
}

/** NATS settings (@vellum/config's one loader: NATS_URL required, NATS_PREFIX, credentials, TLS), read by main.ts only. */
export const loadNatsSettings = (env: Env = process.env): MessagingSettings => loadMessagingSettings(env, { name: 'revisions' });

/** The retention policy of a configuration. */
export const retentionPolicy = (c: RevisionsConfig) => ({
  revisionsMaxAgeMs: c.REVISIONS_RETENTION,
  keepLast: c.REVISIONS_KEEP_LAST,
  activityMaxAgeMs: c.ACTIVITY_RETENTION,
  batchSize: c.RETENTION_BATCH_SIZE,
  archiveDir: c.RETENTION_ARCHIVE_DIR,
});
