import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exited, followSse, freePort, startNpmStartLogged, stopProcessGroup, waitForPing } from '@vellum/testing';
import { api, startLoad } from './crash-load';
import { collectionWithId, FAST_LOGINS } from './platform-harness';

// `npm start` (the embedded topology: one process serves the stream) killed with SIGKILL to its process group while a
// client follows the revisions and items are written, then started again on the same data: the client reconnects
// with Last-Event-ID and receives every revision it missed — those recorded after the restart from the outbox
// included — exactly once, in order.
const ADMIN = { email: 'admin@example.com', password: 'stream-crash-password-1' };

/** The ids of the notes' revisions, in order, as `/revisions` lists them. */
async function revisionIds(port: number, token: string): Promise<number[]> {
  const r = await api(port, 'GET', '/revisions?fields=id&sort=id&limit=-1&filter[collection][_eq]=notes', token);
  return (r.json.data as unknown as { id: number }[]).map((x) => x.id);
}

describe('npm start killed under a revision stream', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vellum-stream-crash-'));
  chmodSync(dataDir, 0o755);
  let child: ChildProcess | undefined;
  afterAll(async () => {
    await stopProcessGroup(child, dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the client resumes with Last-Event-ID and gets every revision once, in order', async () => {
    const [port, dbPort] = [await freePort(), await freePort()];
    const env = { EMBEDDED_DB_PORT: String(dbPort), ADMIN_PASSWORD: ADMIN.password, ...FAST_LOGINS, RATE_LIMITER_ENABLED: 'false' };
    const log = { text: '' };
    child = startNpmStartLogged(dataDir, port, env, log);
    await waitForPing(port, 90_000);
    const token = String((await api(port, 'POST', '/auth/login', undefined, ADMIN)).json.data?.access_token);
    expect((await api(port, 'POST', '/collections', token, collectionWithId('notes', [{ field: 'title', type: 'string' }]))).status).toBe(200);
    const url = `http://127.0.0.1:${port}`;
    const follower = followSse(`${url}/revisions/stream?fields=id&filter[collection][_eq]=notes`, { authorization: `Bearer ${token}` });
    const ids = () => follower.events.filter((e) => e.event === 'message').map((e) => Number(e.id));
    const load = startLoad({ url: () => url, token, collection: 'notes', writers: 4, requesters: [], resetUrl: 'https://app.example.com/reset' });
    await load.acknowledged({ items: 30 });
    await follower.until(() => ids().length > 5);
    process.kill(-child.pid!, 'SIGKILL');
    await exited(child);
    const seenBefore = ids().length;
    child = startNpmStartLogged(dataDir, port, env, log);
    await waitForPing(port, 90_000);
    await load.acknowledged({ items: load.counts().items + 20 }, 60_000);
    const result = await load.stop();
    // every acknowledged item's revision is recorded (writes cut off by the kill without an answer may add more,
    // recorded from the outbox after the restart, even after this read: the stream is compared with a later read)
    let recorded: number[] = [];
    for (const end = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 500))) {
      recorded = await revisionIds(port, token);
      if (recorded.length >= result.ackedItems.length) break;
      if (Date.now() > end) throw new Error(`revisions missing: ${recorded.length} of ${result.ackedItems.length}`);
    }
    // a loaded machine (the real-servers stage runs many platforms at once) takes longer to resume than an idle one
    await follower
      .until(() => (ids().at(-1) ?? 0) >= recorded.at(-1)!, 90_000)
      .catch((err: Error) => {
        // what a failure needs to be understood: each connection of the client, what it missed, the platform's own words
        const seen = new Set(ids());
        const missing = recorded.filter((id) => id >= ids()[0]! && !seen.has(id));
        const said = log.text.split('\n').filter((l) => /stream|feed|revision|warn|error/i.test(l));
        throw new Error(
          `${err.message}\nlast seen ${ids().at(-1)}, recorded last ${recorded.at(-1)}, missing ${JSON.stringify(missing)}` +
            `\nconnections:\n${follower.history.join('\n')}\nplatform log (tail):\n${said.slice(-40).join('\n')}`,
        );
      });
    follower.stop();
    // the stream holds a revision only once every earlier one is recorded: a read now has all up to its last
    const streamed = ids();
    const expected = (await revisionIds(port, token)).filter((id) => id >= streamed[0]! && id <= streamed.at(-1)!);
    console.log(
      `stream crash (embedded): ${result.ackedItems.length} items acknowledged, ${recorded.length} revisions first read, ` +
        `last streamed ${streamed.at(-1)} (first read's last ${recorded.at(-1)}), ${follower.reconnects} reconnects`,
    );
    expect(follower.reconnects).toBeGreaterThan(0);
    expect(streamed.length).toBeGreaterThan(seenBefore);
    expect(streamed).toEqual(expected);
  }, 300_000);
});
