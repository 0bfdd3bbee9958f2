import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { withClient } from '@vellum/db';
import { freePort } from '@vellum/testing';
import { SmtpSink } from '../../../services/mailer/test/support/smtp-sink';
import { api, settle, startLoad } from './crash-load';
import { exited, killProcessesUsing, startNpmStartLogged, waitForPing } from '@vellum/testing';

// Issue 15: one mail per acknowledged password request in the embedded topology with SMTP, across kill -9.
// `npm start` in a child process mails to a real SMTP server (npm smtp-server) in this process; 3 requesters ask
// for password resets. The SMTP server answers each mail after 150 ms, so jobs wait in the mailer's queue. Then the
// auth outbox is locked (SHARE: its rows can be read and handed to the mailer, but not marked as delivered and no
// new request commits), which holds open the window "SMTP accepted, mailer recorded the job id, outbox row not
// marked" that is otherwise a few milliseconds wide. After 3 more mails the SMTP server stops answering, and
// 500 ms later (every mail answered so far has been recorded by then) SIGKILLs the whole process group, the
// embedded PostgreSQL with it. On restart, on the same data, the outbox hands every unmarked job to the mailer
// again. Expected:
// - every committed job has exactly one distinct Message-ID, `<job id@vellum-mailer>`, and no mail is without a job;
// - no job the SMTP server had answered before the kill is mailed again (the mailer finds its recorded id);
// - the only repeats are jobs the server received but never answered (the sender died first: the window no
//   system can close), and each repeat carries the same Message-ID as its first copy.
// With the sent ids in memory (before they were kept in PostgreSQL) every job answered after the lock is mailed twice.
const ADMIN = { email: 'admin@example.com', password: 'crash-smtp-admin-password-1' };
const RESET_URL = 'https://app.example.com/reset';
const ANSWER_DELAY_MS = 150;
const AFTER_LOCK = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const query = <T extends object>(url: string, sql: string): Promise<T[]> => withClient(url, async (c) => (await c.query<T>(sql)).rows);

describe('npm start with SMTP: one mail per committed password request across kill -9 of its process group', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vellum-crash-smtp-'));
  chmodSync(dataDir, 0o755);
  let child: ChildProcess | undefined;
  let smtp: SmtpSink | undefined;
  afterAll(async () => {
    if (child?.pid && child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid, 'SIGTERM');
      await exited(child);
    }
    killProcessesUsing(dataDir);
    await smtp?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('kill -9 while mails are accepted, recorded and not yet marked: no recorded job is mailed again; repeats only of unanswered mails, same Message-ID', async () => {
    const [port, dbPort] = [await freePort(), await freePort()];
    const sink = (smtp = await SmtpSink.start());
    const env = {
      EMBEDDED_DB_PORT: String(dbPort),
      ADMIN_PASSWORD: ADMIN.password,
      LOGIN_STALL_TIME: '20',
      RATE_LIMITER_ENABLED: 'false',
      PASSWORD_RESET_URL_ALLOW_LIST: RESET_URL,
      ...sink.env,
    };
    const authDb = `postgres://postgres:postgres@127.0.0.1:${dbPort}/vellum_auth`;
    const messagingDb = `postgres://postgres:postgres@127.0.0.1:${dbPort}/vellum_messaging`;
    const log = { text: '' };
    const launch = () => startNpmStartLogged(dataDir, port, env, log);

    // the SMTP server's side of the crash: answer after a delay; once armed, answer nothing more and kill the group
    let phase: 'normal' | 'locked' | 'armed' | 'restarted' = 'normal';
    let afterLock = 0;
    let dataInFirstLife = 0;
    let killing: Promise<void> | undefined;
    let answeredBeforeKill = -1;
    let killedAt = 0;
    const kill = async () => {
      await sleep(500);
      answeredBeforeKill = sink.received.length; // each of these got its 250 ≥ ~500 ms ago
      killedAt = Date.now();
      process.kill(-child!.pid!, 'SIGKILL');
    };
    sink.onData = async () => {
      if (phase === 'restarted') return 'accept';
      dataInFirstLife++;
      await sleep(ANSWER_DELAY_MS);
      if (phase === 'locked' && ++afterLock > AFTER_LOCK) phase = 'armed';
      if (phase === 'armed') await (killing ??= kill()); // its answer goes to a dead sender
      return 'accept';
    };

    child = launch();
    await waitForPing(port, 90_000);
    const login = await api(port, 'POST', '/auth/login', undefined, ADMIN);
    expect(login.status).toBe(200);
    const token = String(login.json.data?.access_token);
    const emails = ['smtp-crash-1@example.com', 'smtp-crash-2@example.com', 'smtp-crash-3@example.com'];
    for (const email of emails)
      expect((await api(port, 'POST', '/users', token, { email, password: 'crash-user-password-1', status: 'active' })).status).toBe(200);

    const load = startLoad({ url: () => `http://127.0.0.1:${port}`, token, collection: 'unused', writers: 0, requesters: emails, resetUrl: RESET_URL });
    // a backlog of jobs handed to the mailer and not yet answered by the SMTP server
    const unmarked = async () =>
      (await query<{ n: string }>(authDb, `SELECT count(*) AS n FROM outbox WHERE destination = 'MAIL' AND published_at IS NULL`))[0].n;
    await settle(async () => (sink.received.length >= 5 && Number(await unmarked()) >= 8 ? [] : ['no backlog yet']), 60_000);

    const lock = new Client({ connectionString: authDb });
    lock.on('error', () => undefined); // its server dies with the group
    await lock.connect();
    await lock.query(`BEGIN; LOCK TABLE outbox IN SHARE MODE`);
    const answeredBeforeLock = sink.received.length;
    phase = 'locked';
    // while the lock is held no row is inserted or marked: these are the unmarked rows at the kill
    const unmarkedRows = new Set(
      (await lock.query<{ id: string }>(`SELECT id FROM outbox WHERE destination = 'MAIL' AND published_at IS NULL`)).rows.map((r) => r.id),
    );
    await settle(async () => (killedAt ? [] : ['not killed yet']), 30_000);
    expect(killedAt).toBeGreaterThan(0);
    await exited(child);
    const result = await load.stop();
    await lock.end().catch(() => undefined);
    // every DATA of the first life parsed and recorded by the sink before the restart
    await settle(async () => (sink.received.length >= dataInFirstLife ? [] : ['first life not recorded']), 10_000);
    const firstLife = sink.received.length;
    const answered = new Set(sink.received.slice(0, answeredBeforeKill).map((m) => m.jobId));
    const unanswered = new Set(sink.received.slice(answeredBeforeKill, firstLife).map((m) => m.jobId));
    const answeredAfterLock = sink.received.slice(answeredBeforeLock, answeredBeforeKill).map((m) => m.jobId);

    phase = 'restarted';
    child = launch();
    await waitForPing(port, 90_000);
    const jobs = async () =>
      query<{ id: string; published: boolean }>(authDb, `SELECT id, published_at IS NOT NULL AS published FROM outbox WHERE destination = 'MAIL'`);
    const mailed = () => new Set(sink.received.map((m) => m.jobId));
    expect(
      await settle(async () => {
        const rows = await jobs();
        const got = mailed();
        const p = rows.filter((r) => !r.published || !got.has(r.id)).length;
        return p ? [`${p} of ${rows.length} mail jobs not delivered and marked`] : [];
      }, 60_000),
    ).toEqual([]);
    await sleep(2000); // a late duplicate would arrive now

    const committed = new Set((await jobs()).map((r) => r.id));
    const copies = new Map<string, string[]>(); // job id → Message-IDs of its copies
    for (const m of sink.received) copies.set(m.jobId, [...(copies.get(m.jobId) ?? []), String(m.parsed.messageId)]);
    const summary = `${result.ackedRequests} requests acknowledged, ${committed.size} jobs committed, ${sink.received.length} mails (${firstLife} before the restart); after the lock ${answeredAfterLock.length} answered (${answeredAfterLock.filter((id) => unmarkedRows.has(id)).length} of them unmarked at the kill, ${answeredAfterLock.filter((id) => (copies.get(id)?.length ?? 0) > 1).length} mailed twice), ${unanswered.size} unanswered at the kill (${[...unanswered].filter((id) => (copies.get(id)?.length ?? 0) > 1).length} mailed twice); ${unmarkedRows.size} unmarked rows`;
    console.log(`crash (embedded, SMTP): ${summary}`);

    // the scenario happened: jobs answered (and recorded) after the lock were still unmarked at the kill, and the
    // server held mails it never answered
    expect(answeredAfterLock.filter((id) => unmarkedRows.has(id)).length).toBeGreaterThan(0);
    expect(unanswered.size).toBeGreaterThan(0);
    // one distinct Message-ID per committed job, derived from the job id; nothing without a job
    expect(committed.size).toBeGreaterThanOrEqual(result.ackedRequests);
    expect([...copies.keys()].sort()).toEqual([...committed].sort());
    for (const [id, ids] of copies) expect({ id, messageIds: [...new Set(ids)] }).toEqual({ id, messageIds: [`<${id}@vellum-mailer>`] });
    // repeats: only of mails the server never answered before the kill
    const repeated = [...copies].filter(([, ids]) => ids.length > 1).map(([id]) => id);
    expect(repeated.filter((id) => answered.has(id))).toEqual([]);
    expect(repeated.filter((id) => !unanswered.has(id))).toEqual([]);
    expect(Math.max(...[...copies.values()].map((ids) => ids.length))).toBeLessThanOrEqual(2);
    // every answered job's id was recorded durably before the kill
    const recorded = await query<{ key: string }>(
      messagingDb,
      `SELECT key FROM key_value WHERE bucket = 'vellum_mail_sent' AND updated_at < to_timestamp(${killedAt / 1000})`,
    );
    const recordedIds = new Set(recorded.map((r) => r.key));
    expect([...answered].filter((id) => !recordedIds.has(id))).toEqual([]);
    expect(log.text).not.toMatch(/mail sent but its id could not be recorded/);
  }, 300_000);
});
