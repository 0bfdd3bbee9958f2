import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { timeStep, totpAt } from '@vellum/auth/src/domain/totp';

/** Direct API calls for a test's setup (json-mode token), beside what the browser does. */
export async function apiAs(base: string, email: string, password: string) {
  const login = await request(base).post('/auth/login').send({ email, password });
  if (login.status !== 200) throw new Error(`login ${email}: ${login.status} ${JSON.stringify(login.body)}`);
  const auth = `Bearer ${login.body.data.access_token as string}`;
  const call = (method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object) => {
    const r = request(base)[method](path).set('authorization', auth);
    return body ? r.send(body) : r;
  };
  return {
    get: (path: string) => call('get', path),
    post: (path: string, body: object) => call('post', path, body),
    patch: (path: string, body: object) => call('patch', path, body),
    delete: (path: string) => call('delete', path),
  };
}

/** The TOTP code of `secret` for `offsetSteps` steps from now (the auth service's own implementation). */
export const totp = (secret: string, offsetSteps = 0) => totpAt(secret, timeStep(new Date()) + offsetSteps);

/** The status of `GET path` on the platform from outside the browser: no cookie, `Authorization: Bearer <token>` if given. */
export async function statusOf(base: string, path: string, token?: string): Promise<number> {
  const r = await fetch(base + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  await r.arrayBuffer();
  return r.status;
}

/**
 * Ask again until the answer is `expected` (access rules, revocations and tokens reach the gateway within about a
 * second), at most `timeoutMs`; the last answer either way, for the test's assertion.
 */
export async function becomes<T>(read: () => Promise<T>, expected: T, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (v === expected || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A new active user `<prefix>-<random>@example.com` (no role unless `role`), created by the first administrator through the API. */
export async function createUser(
  base: string,
  admin: { email: string; password: string },
  user: { prefix: string; password: string; role?: string },
): Promise<{ email: string; id: string }> {
  const api = await apiAs(base, admin.email, admin.password);
  const email = `${user.prefix}-${randomUUID().slice(0, 8)}@example.com`;
  const r = await api.post('/users', { email, password: user.password, role: user.role, status: 'active' });
  if (r.status !== 200) throw new Error(`create user ${email}: ${r.status} ${JSON.stringify(r.body)}`);
  return { email, id: r.body.data.id as string };
}
