import http from 'node:http';
import { mkdtempSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createLogger } from '@vellum/logger';
import { dropDatabase } from '@vellum/db';
import { connectNatsMessaging, type Messaging } from '@vellum/messaging';
import { uniqueId, testNatsUrl } from '@vellum/testing';
import type { Env } from '@vellum/config';
import { SmtpSink } from '../../../services/mailer/test/support/smtp-sink';
import { loadLocalConfig } from '../src/config';
import { startPlatform, DATABASES, type Platform } from '../src/platform';
import { createEmbeddedMessaging } from '../src/embedded-messaging';

export const ADMIN = { email: 'admin@example.com', password: 'e2e-admin-password-1' };

/** Logins fast enough for a test: a short stall, the cheapest Argon2 parameters the platform accepts. */
export const FAST_LOGINS = { LOGIN_STALL_TIME: '20', ARGON2_MEMORY_KIB: '19456', ARGON2_ITERATIONS: '2' };

/** A `POST /collections` body: an auto-increment integer `id`, then `fields`. */
export const collectionWithId = (collection: string, fields: { field: string; type: string }[] = []) => ({
  collection,
  fields: [{ field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } }, ...fields],
});

/** `n` requests, one after the other (`send(i)`): their statuses, and the last answer. */
export async function sendInTurn(n: number, send: (i: number) => Promise<request.Response>) {
  const statuses: number[] = [];
  let last: request.Response | undefined;
  for (let i = 0; i < n; i++) {
    last = await send(i);
    statuses.push(last.status);
  }
  return { statuses, last: last! };
}

export interface TestPlatform extends Platform {
  /** The NATS prefix isolating this platform (NATS runs only). */
  natsPrefix?: string;
  /** Log in through the gateway; returns the json-mode token set. */
  login(email?: string, password?: string): Promise<{ access_token: string; refresh_token: string; expires: number }>;
  close(): Promise<void>;
}

/**
 * The whole platform as `npm start` composes it (every service, the gateway), on the test PostgreSQL server
 * with fresh databases, and with in-process messaging — or NATS JetStream (isolated by a prefix) when
 * `useNats` is set and a NATS server is available.
 */
export async function startTestPlatform(opts: { overrides?: Env; useNats?: boolean; local?: Env } = {}): Promise<TestPlatform> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set (the root Jest global setup sets it)');
  const suffix = uniqueId('e2e')
    .replace(/[^a-z0-9_]/gi, '_')
    .toLowerCase();
  const databases = Object.fromEntries(Object.entries(DATABASES).map(([k, v]) => [k, `${v}_${suffix}`])) as Record<keyof typeof DATABASES, string>;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vellum-e2e-'));
  chmodSync(dataDir, 0o755);
  const natsUrl = opts.useNats ? testNatsUrl() : undefined;
  const messaging: Messaging = natsUrl ? await connectNatsMessaging({ servers: natsUrl, name: 'e2e', prefix: `${suffix}_` }) : createEmbeddedMessaging();
  const config = loadLocalConfig({ DATABASE_URL: serverUrl, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', ...opts.local });
  const platform = await startPlatform({
    config,
    logger: createLogger({ name: 'e2e', level: process.env.E2E_LOG_LEVEL ?? 'silent' }),
    databases,
    messaging,
    overrides: {
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOGIN_STALL_TIME: '50',
      ARGON2_MEMORY_KIB: '19456',
      ARGON2_ITERATIONS: '2',
      RATE_LIMITER_ENABLED: 'false',
      // failed logins counted per platform (a machine's Redis would carry counts from run to run)
      AUTH_LOGIN_LIMIT_STORE: 'memory',
      ...opts.overrides,
    },
  });
  return {
    ...platform,
    natsPrefix: natsUrl ? `${suffix}_` : undefined,
    async login(email = ADMIN.email, password = ADMIN.password) {
      const r = await request(platform.url).post('/auth/login').send({ email, password });
      if (r.status !== 200) throw new Error(`login failed: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.data;
    },
    async close() {
      await platform.stop();
      if ('destroy' in messaging) await (messaging as { destroy(): Promise<void> }).destroy().catch(() => {});
      await messaging.close();
      for (const db of Object.values(databases)) await dropDatabase(serverUrl, db).catch(() => {});
    },
  };
}

/** Poll until fn returns a truthy value (bounded). */
/** A fresh SmtpSink and a platform whose mailer sends to it (plain SMTP), with `overrides`. */
export async function startTestPlatformWithSmtp(useNats: boolean, overrides: Env): Promise<{ platform: TestPlatform; smtp: SmtpSink }> {
  const smtp = await SmtpSink.start();
  try {
    return { platform: await startTestPlatform({ useNats, overrides: { ...smtp.env, ...overrides } }), smtp };
  } catch (err) {
    await smtp.stop();
    throw err;
  }
}

export async function eventually<T>(fn: () => Promise<T | undefined | false>, timeoutMs = 10_000, stepMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, stepMs));
  }
  throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${(last as Error).message}` : ''}`);
}

/**
 * POST /auth/login to the gateway on 127.0.0.1:`port` from the local address `from` (127.0.0.x: another client),
 * with `headers` besides JSON: status, body, and the Set-Cookie values.
 */
export function loginFrom(
  port: number,
  from: string,
  body: object,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; cookies: string[] }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        localAddress: from,
        method: 'POST',
        path: '/auth/login',
        agent: false,
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, cookies: res.headers['set-cookie'] ?? [] }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
