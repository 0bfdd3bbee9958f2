import request from 'supertest';
import type { Messaging } from '@vellum/messaging';
import { MAIL_SENT_BUCKET } from '../src';
import { startMailer, type RunningMailer } from '../src/start';
import { backends, createBackend, deadLetters, job, memoryLogger, publish, testConfig, type Backend } from './support/harness';
import { eventually, sleep, SmtpSink } from './support/smtp-sink';

describe.each(backends())('mailer with %s messaging and a real SMTP server', (kind) => {
  let backend: Backend;
  let sink: SmtpSink;
  const running: RunningMailer[] = [];

  beforeEach(async () => {
    backend = await createBackend(kind);
    sink = await SmtpSink.start();
  });

  afterEach(async () => {
    await Promise.allSettled(running.splice(0).map((m) => m.stop()));
    await sink.stop();
    await backend.cleanup();
  });

  async function mailer(env: Record<string, string> = {}, messaging?: Messaging): Promise<RunningMailer> {
    const config = testConfig({ EMAIL_SMTP_HOST: sink.host, EMAIL_SMTP_PORT: String(sink.port), ...env });
    const m = await startMailer(config, {
      logger: memoryLogger().logger,
      messaging: messaging ?? (await backend.connect(`mailer-${running.length}`)),
    });
    running.push(m);
    return m;
  }

  it('sends a password-reset job as HTML + text with the escaped link, project name and sender', async () => {
    const m = await mailer();
    const producer = await backend.connect('producer');
    const j = job({ data: { url: 'https://app.example.com/reset?token=abc.def&next=<x>"', name: 'Ann <admin>' } });
    await publish(producer, j);
    const [mail] = await sink.waitFor(1);
    expect(mail.jobId).toBe(j.id);
    expect(mail.to).toEqual([j.to]);
    expect(mail.parsed.from?.text).toContain('no-reply@vellum.test');
    expect(mail.parsed.subject).toBe('Reset your password for Vellum Test');
    expect(mail.parsed.messageId).toBe(`<${j.id}@vellum-mailer>`);
    const html = String(mail.parsed.html);
    const text = String(mail.parsed.text);
    // HTML: the link is escaped (attribute and text), the name too; nothing raw slips through
    expect(html).toContain('href="https://app.example.com/reset?token=abc.def&amp;next=&lt;x&gt;&quot;"');
    expect(html).toContain('Hello Ann &lt;admin&gt;,');
    expect(html).not.toContain('<x>');
    expect(html).not.toContain('<admin>');
    expect(html).toContain('<strong>Vellum Test</strong>');
    // text: the link verbatim (clickable in a plain-text client)
    expect(text).toContain('https://app.example.com/reset?token=abc.def&next=<x>"');
    expect(text).toContain('Vellum Test');
    await eventually(() => m.metrics.get('mails_sent_total', 'password-reset') === 1);
    const metrics = await m.registry.metrics();
    expect(metrics).toContain('vellum_mails_sent_total{template="password-reset"} 1');
    expect(metrics).toContain('# TYPE vellum_mails_dead_lettered_total counter');
    expect(metrics).toMatch(/vellum_consumer_pending\{service="mailer",stream="MAIL",consumer="mailer"\} 0/);
    expect((await request(m.url).get('/metrics')).status).toBe(404); // not on the service port
  });

  it('sends an invitation with its own template and the project name from the job', async () => {
    await mailer();
    const j = job({ template: 'user-invitation', data: { url: 'https://app.example.com/admin/accept?token=t1', project: 'Acme & Co' } });
    await publish(await backend.connect('producer'), j);
    const [mail] = await sink.waitFor(1);
    expect(mail.parsed.subject).toBe('You have been invited to Acme & Co');
    expect(String(mail.parsed.html)).toContain('<strong>Acme &amp; Co</strong>');
    expect(String(mail.parsed.html)).toContain('href="https://app.example.com/admin/accept?token=t1"');
    expect(String(mail.parsed.text)).toContain('https://app.example.com/admin/accept?token=t1');
  });

  it('SMTP refusing connections for a while: retried with backoff, delivered once it is back', async () => {
    await sink.stop(); // connection refused from now on
    const m = await mailer();
    const j = job();
    await publish(await backend.connect('producer'), j);
    await eventually(() => m.metrics.get('mails_retried_total', 'password-reset') >= 3, 10_000);
    expect(sink.received).toHaveLength(0);
    await sink.listen();
    const [mail] = await sink.waitFor(1);
    expect(mail.jobId).toBe(j.id);
    await sleep(500);
    expect(sink.received).toHaveLength(1);
    expect(await deadLetters(await backend.connect('x'))).toHaveLength(0);
    expect(m.metrics.get('mails_sent_total')).toBe(1);
  });

  it('a recipient rejected with 550: dead letter with the reason after exactly one SMTP attempt', async () => {
    const m = await mailer();
    const j = job({ to: 'gone@example.com' });
    sink.rejectRecipients.set('gone@example.com', 550);
    const producer = await backend.connect('producer');
    await publish(producer, j);
    const dead = await eventually(async () => (await deadLetters(producer)).find((d) => d.id === j.id), 10_000);
    expect(dead.reason).toMatch(/^permanent failure: .*550/);
    expect(dead.deliveryCount).toBe(1);
    await sleep(1000); // longer than the whole backoff schedule: no retry storm
    expect(sink.rcptAttempts.get('gone@example.com')).toBe(1);
    expect(sink.received).toHaveLength(0);
    expect(m.metrics.get('mails_dead_lettered_total', 'password-reset')).toBe(1);
    expect(m.metrics.get('mails_retried_total')).toBe(0);
  });

  it('a temporary rejection (451) is retried with backoff and dead-lettered once the attempts are exhausted', async () => {
    const m = await mailer({ EMAIL_MAX_ATTEMPTS: '3', EMAIL_RETRY_BACKOFF: '100,200' });
    sink.rejectRecipients.set('busy@example.com', 451);
    const producer = await backend.connect('producer');
    const j = job({ to: 'busy@example.com' });
    const started = Date.now();
    await publish(producer, j);
    const dead = await eventually(async () => (await deadLetters(producer)).find((d) => d.id === j.id), 10_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300); // 100 + 200 ms of backoff
    expect(dead.reason).toMatch(/^retries exhausted after 3 attempts: .*451/);
    expect(sink.rcptAttempts.get('busy@example.com')).toBe(3);
    expect(m.metrics.get('mails_retried_total', 'password-reset')).toBe(2);
    expect(m.metrics.get('mails_dead_lettered_total', 'password-reset')).toBe(1);
  });

  it('a job id seen again (a redelivery after the send) is acknowledged without a second mail', async () => {
    const m = await mailer();
    const producer = await backend.connect('producer');
    const j = job();
    await publish(producer, j, `${j.id}-a`);
    await sink.waitFor(1);
    await publish(producer, j, `${j.id}-b`); // another message, same job id (the broker's dedupe does not see it)
    await eventually(() => m.metrics.get('mails_duplicates_skipped_total') === 1);
    await sleep(200);
    expect(sink.received).toHaveLength(1);
    expect(m.metrics.get('mails_sent_total')).toBe(1);
  });

  it('forgets a sent job id after EMAIL_SENT_IDS_TTL: the bucket does not grow for ever', async () => {
    // the shortest TTL the config allows here: one attempt, 1 s ack wait → retries end after 1 s
    const m = await mailer({ EMAIL_MAX_ATTEMPTS: '1', EMAIL_ACK_WAIT: '1s', EMAIL_SEND_TIMEOUT: '900', EMAIL_SENT_IDS_TTL: '1500' });
    const producer = await backend.connect('producer');
    const sent = await producer.keyValue<unknown>(MAIL_SENT_BUCKET); // opened as the mailer made it
    const j = job();
    await publish(producer, j, `${j.id}-a`);
    await eventually(async () => (await sent.get(j.id)) !== undefined); // recorded just after the SMTP server's 250
    await publish(producer, j, `${j.id}-b`); // within the TTL: skipped
    await eventually(() => m.metrics.get('mails_duplicates_skipped_total') === 1);
    // (get, not entries(): listing the keys of a JetStream bucket while one expires waits for the next heartbeat)
    await eventually(async () => (await sent.get(j.id)) === undefined, 10_000);
    await publish(producer, j, `${j.id}-c`); // forgotten: sent again (the job's own expiry is the auth service's)
    await eventually(() => m.metrics.get('mails_sent_total') === 2);
    expect(sink.received).toHaveLength(2);
  });

  it('invalid jobs and unknown versions are dead-lettered at once, without retries', async () => {
    const m = await mailer();
    const producer = await backend.connect('producer');
    const v2 = { ...job(), v: 2 };
    const bad = { ...job(), to: 'not-an-address' };
    const js = { ...job(), data: { url: 'javascript:alert(1)' } };
    await publish(producer, v2);
    await publish(producer, bad);
    await publish(producer, js);
    const dead = await eventually(async () => {
      const d = await deadLetters(producer);
      return d.length === 3 ? d : undefined;
    });
    const reason = (id: string) => dead.find((d) => d.id === id)!;
    expect(reason(v2.id).reason).toMatch(/unsupported mail job version 2/);
    expect(reason(bad.id).reason).toMatch(/invalid mail job: to/);
    expect(reason(js.id).reason).toMatch(/http\(s\)|url/);
    expect(dead.every((d) => d.deliveryCount === 1)).toBe(true);
    expect(sink.received).toHaveLength(0);
    expect(m.metrics.get('mails_dead_lettered_total')).toBe(3);
  });

  it('stop() finishes the job in hand: the mail is accepted, acknowledged, and not sent again', async () => {
    const m = await mailer();
    let release!: () => void;
    const inData = new Promise<void>((resolve) => {
      sink.onData = () => {
        resolve();
        return new Promise((r) => (release = () => r('accept')));
      };
    });
    const producer = await backend.connect('producer');
    const j = job();
    await publish(producer, j);
    await inData;
    let stopped = false;
    const stopping = m.stop().then(() => (stopped = true));
    await sleep(300);
    expect(stopped).toBe(false); // still waiting for the job in hand
    release();
    await stopping;
    expect(sink.received.map((r) => r.jobId)).toEqual([j.id]);
    // a new replica finds nothing to redo
    sink.onData = undefined;
    const next = await mailer();
    await sleep(500);
    expect(sink.received).toHaveLength(1);
    expect(next.metrics.get('mails_duplicates_skipped_total')).toBe(0);
    expect(next.metrics.get('mails_sent_total')).toBe(0);
  });

  it('a mailer that never acknowledges (hung on the send): the job is redelivered after the ack wait and arrives once', async () => {
    const env = { EMAIL_ACK_WAIT: '1s', EMAIL_SEND_TIMEOUT: '20s', EMAIL_SMTP_TIMEOUT: '20s', EMAIL_CONCURRENCY: '1' };
    // the first attempt hangs until the redelivered one got through, then its connection dies
    const first = sink.holdFirst({ releaseWhenNextAccepted: true });
    const a = await mailer(env);
    const producer = await backend.connect('producer');
    const j = job();
    await publish(producer, j);
    await eventually(() => first.attempts() === 1);
    const b = await mailer(env);
    const [mail] = await sink.waitFor(1, 10_000);
    expect(mail.jobId).toBe(j.id);
    await a.stop();
    await sleep(1500); // past another ack wait: nothing more
    expect(sink.received).toHaveLength(1);
    expect(a.metrics.get('mails_sent_total') + b.metrics.get('mails_sent_total')).toBe(1);
    expect(await deadLetters(producer)).toHaveLength(0);
  });

  it('two replicas share 200 jobs: none lost, none sent twice', async () => {
    const a = await mailer();
    const b = await mailer();
    const producer = await backend.connect('producer');
    const jobs = Array.from({ length: 200 }, () => job());
    const started = Date.now();
    for (let i = 0; i < jobs.length; i += 20) await Promise.all(jobs.slice(i, i + 20).map((j) => publish(producer, j)));
    await sink.waitFor(200, 30_000);
    const elapsed = Date.now() - started;
    await sleep(500);
    const ids = sink.received.map((r) => r.jobId);
    expect(ids).toHaveLength(200);
    expect(new Set(ids).size).toBe(200);
    expect(new Set(ids)).toEqual(new Set(jobs.map((j) => j.id)));
    const sa = a.metrics.get('mails_sent_total');
    const sb = b.metrics.get('mails_sent_total');
    expect(sa + sb).toBe(200);
    expect(sa).toBeGreaterThan(0);
    expect(sb).toBeGreaterThan(0);
    console.log(`[mailer ${kind}] 200 jobs through 2 replicas in ${elapsed} ms (a=${sa}, b=${sb})`);
  });

  it('answers /server/ping and /server/health (readiness follows the queue connection)', async () => {
    const messaging = await backend.connect('health');
    const m = await mailer({ HEALTH_TOKEN: 'h' }, messaging);
    expect((await request(m.url).get('/server/ping')).text).toBe('pong');
    const ok = await request(m.url).get('/server/health').set('Authorization', 'Bearer h');
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text).checks.messaging.status).toBe('ok');
    await m.stop();
    running.splice(running.indexOf(m), 1);
    // a mailer whose messaging connection is gone reports not ready
    const m2 = await mailer({ HEALTH_TOKEN: 'h' }, messaging);
    await messaging.close();
    const down = await request(m2.url).get('/server/health').set('Authorization', 'Bearer h');
    expect(down.status).toBe(503);
    expect(JSON.parse(down.text).checks.messaging.status).toBe('error');
    expect((await request(m2.url).get('/server/ready')).status).toBe(503);
  });
});
