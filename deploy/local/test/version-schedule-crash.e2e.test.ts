import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exited, freePort, startNpmStartLogged, stopProcessGroup, waitForPing } from '@vellum/testing';
import { api } from './crash-load';
import { collectionWithId, FAST_LOGINS } from './platform-harness';

// Issue 36, point 2: a scheduled promote survives kill -9. `npm start` (the embedded platform) in a child process;
// a promote scheduled ~3 s ahead; SIGKILL to the whole process group before it is due; started again after
// publish_at on the same data → within 5 s of the restart the item is promoted, with exactly one promote revision.
const ADMIN = { email: 'admin@example.com', password: 'schedule-admin-password-1' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a scheduled promote survives SIGKILL of the embedded platform', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vellum-schedule-'));
  chmodSync(dataDir, 0o755);
  let child: ChildProcess | undefined;
  afterAll(async () => {
    await stopProcessGroup(child, dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('schedule, kill -9 before publish_at, restart after it: promoted once, within 5 s of the restart', async () => {
    const [port, dbPort] = [await freePort(), await freePort()];
    const env = { EMBEDDED_DB_PORT: String(dbPort), ADMIN_PASSWORD: ADMIN.password, ...FAST_LOGINS, RATE_LIMITER_ENABLED: 'false' };
    const log = { text: '' };
    const launch = () => startNpmStartLogged(dataDir, port, env, log);
    const login = async () => String((await api(port, 'POST', '/auth/login', undefined, ADMIN)).json.data?.access_token);
    child = launch();
    await waitForPing(port, 90_000);
    let token = await login();
    const call = async (method: string, p: string, body?: unknown, status = 200) => {
      const r = await api(port, method, p, token, body);
      if (r.status !== status) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.json)}\n${log.text.slice(-3000)}`);
      return r.json.data as Record<string, unknown>;
    };
    await call('POST', '/collections', { ...collectionWithId('articles', [{ field: 'title', type: 'string' }]), meta: { versioning: true } });
    const id = (await call('POST', '/items/articles', { title: 'live' })).id as number;
    const v = await call('POST', '/versions', { key: 'draft', collection: 'articles', item: id });
    await call('POST', `/versions/${v.id as string}/save`, { title: 'draft' });
    const publishAt = Date.now() + 3000;
    const scheduled = await call('PATCH', `/versions/${v.id as string}`, { publish_at: new Date(publishAt).toISOString() });
    expect(scheduled.publish_status).toBe('scheduled');

    // the whole group dies before the promote is due: no drain, no shutdown hook
    process.kill(-child.pid!, 'SIGKILL');
    await exited(child);
    expect(Date.now()).toBeLessThan(publishAt);
    await sleep(Math.max(0, publishAt - Date.now() + 500));

    child = launch();
    const launchedAt = Date.now();
    const startMs = await waitForPing(port, 90_000);
    const upAt = Date.now();
    token = await login();
    const promotes = async () => {
      const filter = JSON.stringify({ collection: { _eq: 'articles' }, item: { _eq: String(id) }, version: { _null: true } });
      const r = await call('GET', `/revisions?filter=${encodeURIComponent(filter)}&fields=id,delta&sort=id`);
      return (r as unknown as { delta: Record<string, unknown> | null }[]).slice(1); // the first is the item's creation
    };
    let promotedAt = 0;
    for (const end = upAt + 5000; Date.now() < end; await sleep(100)) {
      const item = await call('GET', `/items/articles/${id}`);
      if (item.title === 'draft' && (await promotes()).length > 0) {
        promotedAt = Date.now();
        break;
      }
    }
    expect(promotedAt).toBeGreaterThan(0);
    await sleep(1500); // nothing runs it a second time
    expect((await promotes()).map((r) => r.delta)).toEqual([{ title: 'draft' }]);
    expect(await call('GET', `/versions/${v.id as string}`)).toMatchObject({ publish_status: 'done', publish_error: null });
    console.log(
      `scheduled promote after kill -9: platform up ${startMs} ms after the restart, promote visible ${promotedAt - upAt} ms after it answered (${promotedAt - launchedAt} ms after launch)`,
    );
  }, 240_000);
});
