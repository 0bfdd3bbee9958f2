import type { LimiterStore } from '@vellum/limits';
import { Client } from 'pg';
import request from 'supertest';
import type { Logger } from '@vellum/logger';
import { createTestDatabase, fixedClock, type FixedClock, type TestDatabase, silentLogger } from '@vellum/testing';
import { createApp, type AuthApp } from '../src/app';
import { loadAuthConfig, type AuthConfig } from '../src/config';
import { createPrisma, type Db } from '../src/data/prisma';
import { bootstrap } from '../src/domain/bootstrap';
import { MIGRATIONS_DIR } from '../src/start';
import type { Registry } from '@vellum/metrics';

export const ADMIN = { email: 'admin@example.com', password: 'admin-password-1' };

export interface Harness {
  db: TestDatabase;
  prisma: Db;
  config: AuthConfig;
  built: AuthApp;
  /** The service's request listener (what it serves with in production). */
  app: AuthApp['listener'];
  clock?: FixedClock;
  /** Raw SQL on the test database. */
  sql<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  clock?: FixedClock;
  limiterStore?: LimiterStore;
  logger?: Logger;
  metrics?: Registry;
}

export async function harness(env: Record<string, string> = {}, opts: HarnessOptions = {}): Promise<Harness> {
  const db = await createTestDatabase({ migrationsDir: MIGRATIONS_DIR });
  const config = loadAuthConfig({
    DATABASE_URL: db.url,
    LOGIN_STALL_TIME: '0',
    RATE_LIMITER_ENABLED: 'false',
    // the failed-login budgets are off unless a test turns them on (login-throttle.test.ts, login-buckets.test.ts)
    AUTH_LOGIN_FAILURES_PER_ADDRESS: '0',
    AUTH_LOGIN_FAILURES_PER_ACCOUNT: '0',
    AUTH_LOGIN_ATTEMPTS: '1000',
    AUTH_OTP_ATTEMPTS: '1000',
    AUTH_SPRAY_THRESHOLD: '0',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    PUBLIC_URL: 'http://vellum.local:8055',
    ...env,
  });
  const prisma = createPrisma(db.url, 5);
  const built = createApp({
    db: prisma,
    config,
    logger: opts.logger ?? silentLogger('auth-test'),
    clock: opts.clock,
    limiterStore: opts.limiterStore,
    metrics: opts.metrics,
  });
  await bootstrap(built.ctx);
  const pg = new Client({ connectionString: db.url });
  await pg.connect();
  return {
    db,
    prisma,
    config,
    built,
    app: built.listener,
    clock: opts.clock,
    sql: async (text, values) => (await pg.query(text, values)).rows,
    close: async () => {
      await built.close();
      await pg.end();
      await prisma.$disconnect();
      await db.drop();
    },
  };
}

export const testClock = () => fixedClock(new Date());

/** A harness and the bootstrap administrator's access token: `({ h, admin } = await adminHarness(…))` in a beforeAll. */
export async function adminHarness(env: Record<string, string> = {}, opts: HarnessOptions = {}): Promise<{ h: Harness; admin: string }> {
  const h = await harness(env, opts);
  return { h, admin: (await loginAs(h.app)).body.data.access_token as string };
}

export async function loginAs(app: AuthApp['listener'], email = ADMIN.email, password = ADMIN.password, mode = 'json') {
  const r = await request(app).post('/auth/login').send({ email, password, mode });
  if (r.status !== 200) throw new Error(`login failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

export { errorCode as code } from '@vellum/testing';

/** Cookie "name=value" pairs from a response's Set-Cookie. */
export function cookiesOf(r: request.Response): Record<string, string> {
  const raw = r.headers['set-cookie'] as unknown as string[] | undefined;
  const out: Record<string, string> = {};
  for (const c of raw ?? []) {
    const [pair] = c.split(';');
    const i = pair.indexOf('=');
    out[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return out;
}

export const setCookieHeaders = (r: request.Response) => (r.headers['set-cookie'] as unknown as string[] | undefined) ?? [];

/** The device cookie a login set, as a `Cookie` header value (`vellum_device=…`). */
export function deviceCookieOf(r: request.Response): string {
  const value = cookiesOf(r).vellum_device;
  if (!value) throw new Error(`no device cookie in ${JSON.stringify(r.headers['set-cookie'])}`);
  return `vellum_device=${value}`;
}

/** Set-Cookie values other than the device cookie (the mode's own cookies). */
export const modeCookies = (r: request.Response) => setCookieHeaders(r).filter((c) => !c.startsWith('vellum_device='));
