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

const shape = {
  ...processVariables,
  ...databaseServiceVariables,
  /** Internal base URL of the auth service: its JWKS verifies access tokens. */
  AUTH_URL: z.string().url().optional(),
  /** Internal base URL of the revisions service: a restore reads the revision it writes back there (unset: restores answer 503). */
  REVISIONS_URL: z.string().url().optional(),
  /** Default and maximum `limit` of GET /items/:collection. */
  ...queryLimitVariables,
  /** Connections of the items pool (dynamic tables) and of Prisma (catalogue). */
  DB_POOL_MAX: int(10, { min: 1 }),
  /** The outbox relay's polling fallback (it is woken by LISTEN/NOTIFY otherwise). */
  OUTBOX_POLL_INTERVAL: duration('1s'),
  /** While changes keep coming, at least this long between two relay batches (fewer, larger ones; 0: at once). */
  OUTBOX_BATCH_INTERVAL: duration('5ms'),
  /** Back-pressure: writes are held once the oldest change without its revision is older than this (0: never). */
  HISTORY_LAG_LIMIT: duration('1s'),
  /** How long a held write waits for the history to catch up before it is 503 SERVICE_UNAVAILABLE with Retry-After. */
  HISTORY_LAG_WAIT: duration('2s'),
  /** Scheduled promotes: the safety-net poll (the scheduler also wakes at the nearest `publish_at`). */
  VERSION_PUBLISH_POLL_INTERVAL: duration('2s'),
  /** Nested rows (every row but the request's own items) one write may create, change or delete: 400 beyond. */
  MAX_BATCH_MUTATION: int(1000, { min: 1 }),
  /** How many relations a read may follow in one path (`fields`, `filter`, `sort`, `deep`). */
  MAX_RELATIONAL_DEPTH: int(10, { min: 1 }),
};

export type ItemsConfig = ReturnType<typeof loadConfig<typeof shape>>;

export function loadItemsConfig(env: Env = process.env): ItemsConfig {
  return loadConfig(shape, env);
}

/** NATS settings (@vellum/config's one loader: NATS_URL required, NATS_PREFIX, credentials, TLS), read by main.ts only. */
export const loadNatsSettings = (env: Env = process.env): MessagingSettings => loadMessagingSettings(env, { name: 'items' });
