import path from 'node:path';
import { createLogger } from '@vellum/logger';
import { loadLocalConfig, startPlatform, type Platform } from '@vellum/local';
import { api } from './api';

/** The administrator every bench platform is started with. */
export const BENCH_ADMIN = { email: 'bench@example.com', password: 'bench-password-1' };

/**
 * The embedded platform (`npm start`'s one process) over the databases `npm run bench` leaves for `size` revisions
 * (`vellum_<service>_bench_<size>`) on `databaseUrl`'s server; no rate limit, no login stall; warnings only.
 */
export function startBenchPlatform(o: { databaseUrl: string; size?: number; natsUrl?: string }): Promise<Platform> {
  const suffix = `bench_${o.size ?? 100_000}`;
  const config = loadLocalConfig({
    DATABASE_URL: o.databaseUrl,
    ...(o.natsUrl ? { NATS_URL: o.natsUrl } : {}),
    DATA_DIR: path.resolve('.cache/bench'),
    PORT: '0',
    LOG_LEVEL: 'warn',
  });
  return startPlatform({
    config,
    logger: createLogger({ name: 'bench', level: 'warn' }),
    databases: { auth: `vellum_auth_${suffix}`, revisions: `vellum_revisions_${suffix}`, items: `vellum_items_${suffix}` },
    // the seed rolls the partitions itself (seed.ts): no roll of the service's own while it seeds or measures
    overrides: {
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      RATE_LIMITER_ENABLED: 'false',
      LOGIN_STALL_TIME: '0',
      PARTITION_ROLL_INTERVAL: '20d',
    },
  });
}

/** An access token of the bench administrator, from the platform's gateway. */
export async function benchAdminToken(platform: Platform): Promise<string> {
  return (await api(platform.url, 'POST', '/auth/login', undefined, BENCH_ADMIN)).data.access_token as string;
}
