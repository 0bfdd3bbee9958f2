import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, exited, startNpmStartLogged, stopProcessGroup, waitForPing } from '@vellum/testing';
import { api, mailProblems, nestedProblems, readRecorded, recordingProblems, settle, setUpNested, startLoad } from './crash-load';
import { collectionWithId, FAST_LOGINS } from './platform-harness';

// Issue 15, "done when" 1: `npm start` in a child process, 6 item writers and 2 password requesters, SIGKILL to
// the whole process group (the embedded PostgreSQL with it), start again on the same data: within 60 s every
// acknowledged item is stored, with exactly one revision each, and there is one mail per committed request.
const ADMIN = { email: 'admin@example.com', password: 'crash-admin-password-1' };
const RESET_URL = 'https://app.example.com/reset';

async function login(port: number): Promise<string> {
  const r = await api(port, 'POST', '/auth/login', undefined, ADMIN);
  if (r.status !== 200) throw new Error(`login: ${r.status} ${JSON.stringify(r.json)}`);
  return String(r.json.data?.access_token);
}

describe('npm start survives SIGKILL of its process group without losing an acknowledged write or mail', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vellum-crash-'));
  chmodSync(dataDir, 0o755);
  let child: ChildProcess | undefined;
  afterAll(async () => {
    await stopProcessGroup(child, dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('6 writers (3 of them nested) + 2 password requesters, kill -9 of the group, restart: items ≥ acknowledged, one revision each with its parent, one mail per committed request', async () => {
    const [port, dbPort] = [await freePort(), await freePort()];
    const env = {
      EMBEDDED_DB_PORT: String(dbPort),
      ADMIN_PASSWORD: ADMIN.password,
      ...FAST_LOGINS,
      RATE_LIMITER_ENABLED: 'false',
      PASSWORD_RESET_URL_ALLOW_LIST: RESET_URL,
    };
    const dbUrl = `postgres://postgres:postgres@127.0.0.1:${dbPort}/vellum_auth`;
    const log = { text: '' };
    const launch = () => startNpmStartLogged(dataDir, port, env, log);
    child = launch();
    await waitForPing(port, 90_000);
    let token = await login(port);
    const created = await api(port, 'POST', '/collections', token, collectionWithId('notes', [{ field: 'title', type: 'string' }]));
    expect(created.status).toBe(200);
    await setUpNested((method, p, body) => api(port, method, p, token, body), 'notes');
    const emails = ['crash-1@example.com', 'crash-2@example.com'];
    for (const email of emails)
      expect((await api(port, 'POST', '/users', token, { email, password: 'crash-user-password-1', status: 'active' })).status).toBe(200);

    // half the writers create each note with 3 replies in the same request (a nested write)
    const load = startLoad({
      url: () => `http://127.0.0.1:${port}`,
      token,
      collection: 'notes',
      writers: 6,
      requesters: emails,
      resetUrl: RESET_URL,
      nested: 3,
    });
    // load under way (writes and mail requests acknowledged), then the whole group dies at once: no drain, no shutdown hook
    await load.acknowledged({ items: 30, requests: 2 });
    process.kill(-child.pid!, 'SIGKILL');
    await exited(child);
    const result = await load.stop();
    expect(result.ackedItems.length).toBeGreaterThan(20);
    expect(result.ackedRequests).toBeGreaterThan(0);

    child = launch();
    const t = Date.now();
    await waitForPing(port, 60_000);
    token = await login(port);
    const problems = await settle(
      async () => recordingProblems(await readRecorded(`http://127.0.0.1:${port}`, token, 'notes'), result.ackedItems),
      60_000 - (Date.now() - t),
    );
    expect(problems).toEqual([]);
    // the nested writes: every acknowledged one has its children, each with one revision whose parent is its note's
    expect(result.ackedNested.length).toBeGreaterThan(5);
    expect(await settle(() => nestedProblems(`http://127.0.0.1:${port}`, token, 'notes', result.ackedNested, 3), 30_000)).toEqual([]);

    // mails: one `<job id>.eml` per committed mail job (the auth outbox row), none missing, none extra
    expect(await settle(() => mailProblems(dbUrl, path.join(dataDir, 'mail'), result.ackedRequests), 30_000)).toEqual([]);
    console.log(
      `crash (embedded): ${result.ackedItems.length} items and ${result.ackedRequests} password requests acknowledged before the kill; outcomes ${JSON.stringify(result.outcomes)}`,
    );
  }, 240_000);
});
