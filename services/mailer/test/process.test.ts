import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { testNatsUrl } from '@vellum/testing';
import { startMailer, type RunningMailer } from '../src/start';
import { createBackend, deadLetters, job, memoryLogger, publish, testConfig, type Backend } from './support/harness';
import { eventually, sleep, SmtpSink } from './support/smtp-sink';

const natsUrl = testNatsUrl();
if (!natsUrl) console.warn('[mailer tests] NATS_URL/TEST_NATS_URL not set: the process kill/TERM tests are SKIPPED');
const describeNats = natsUrl ? describe : describe.skip;

const repo = path.resolve(__dirname, '../../..');
const main = path.join(__dirname, '..', 'src', 'main.ts');

/** The mailer as its own process (main.ts through tsx's loader), on NATS under the test's prefix. */
function spawnMailer(backend: Backend, sink: SmtpSink, env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let output = '';
  // node itself (not the tsx wrapper, which would survive as a parent while its child keeps running)
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    cwd: repo,
    env: {
      PATH: process.env.PATH,
      NATS_URL: natsUrl,
      NATS_PREFIX: backend.prefix,
      ...sink.env,
      EMAIL_FROM: 'no-reply@vellum.test',
      LOG_LEVEL: 'info',
      PORT: '0',
      METRICS_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c) => (output += String(c)));
  child.stderr!.on('data', (c) => (output += String(c)));
  return { child, output: () => output };
}

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });

describeNats('mailer process (main.ts) on NATS', () => {
  jest.setTimeout(60_000);
  let backend: Backend;
  let sink: SmtpSink;
  let child: ChildProcess | undefined;
  const running: RunningMailer[] = [];

  beforeEach(async () => {
    backend = await createBackend('nats');
    sink = await SmtpSink.start();
  });

  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.allSettled(running.splice(0).map((m) => m.stop()));
    await sink.stop();
    await backend.cleanup();
  });

  it('killed (SIGKILL) before its ack: the job is redelivered after the ack wait and the mail arrives once', async () => {
    const first = sink.holdFirst(); // the first attempt never completes: its mailer is killed meanwhile
    const env = { EMAIL_ACK_WAIT: '2s', EMAIL_SEND_TIMEOUT: '30s', EMAIL_SMTP_TIMEOUT: '30s', EMAIL_CONCURRENCY: '1' };
    const spawnedAt = Date.now();
    const proc = spawnMailer(backend, sink, env);
    child = proc.child;
    const producer = await backend.connect('producer');
    const j = job();
    await publish(producer, j);
    await eventually(() => first.attempts() === 1, 30_000).catch((err) => {
      throw new Error(`the mailer process never reached DATA: ${(err as Error).message}\n${proc.output()}`);
    });
    const killedAt = Date.now();
    const startup = killedAt - spawnedAt;
    child.kill('SIGKILL');
    expect((await exited(child)).signal).toBe('SIGKILL');
    first.release();

    const { logger, lines } = memoryLogger();
    const config = testConfig({ EMAIL_SMTP_HOST: sink.host, EMAIL_SMTP_PORT: String(sink.port), ...env });
    running.push(await startMailer(config, { logger, messaging: await backend.connect('replica-b') }));
    const [mail] = await sink.waitFor(1, 20_000);
    const redeliveredAfter = Date.now() - killedAt;
    expect(mail.jobId).toBe(j.id);
    const sentLine = await eventually(() => lines().find((l) => l.msg === 'mail sent'));
    expect(sentLine.deliveryCount).toBe(2);
    await sleep(2500); // another ack wait: nothing more arrives
    expect(sink.received).toHaveLength(1);
    expect(await deadLetters(producer)).toHaveLength(0);
    console.log(
      `[mailer process] killed mailer's job redelivered and sent ${redeliveredAfter} ms after the kill (ack wait 2 s); process start → DATA ${startup} ms`,
    );
  });

  it('SIGTERM finishes the job in hand, exits 0, and nothing is sent again', async () => {
    let release!: () => void;
    let inData = false;
    sink.onData = () => {
      inData = true;
      return new Promise((r) => (release = () => r('accept')));
    };
    const proc = spawnMailer(backend, sink, { EMAIL_ACK_WAIT: '2s' });
    child = proc.child;
    const producer = await backend.connect('producer');
    const j = job();
    await publish(producer, j);
    await eventually(() => inData, 30_000).catch((err) => {
      throw new Error(`the mailer process never reached DATA: ${(err as Error).message}\n${proc.output()}`);
    });
    child.kill('SIGTERM');
    await sleep(300);
    expect(child.exitCode).toBeNull(); // still finishing the job in hand
    sink.onData = undefined;
    release();
    expect(await exited(child)).toEqual({ code: 0, signal: null });
    expect(sink.received.map((r) => r.jobId)).toEqual([j.id]);
    // a replica started afterwards (and past the ack wait) finds nothing to redo
    const b = await startMailer(testConfig({ EMAIL_SMTP_HOST: sink.host, EMAIL_SMTP_PORT: String(sink.port), EMAIL_ACK_WAIT: '2s' }), {
      logger: memoryLogger().logger,
      messaging: await backend.connect('replica-b'),
    });
    running.push(b);
    await sleep(2500);
    expect(sink.received).toHaveLength(1);
    expect(b.metrics.get('mails_sent_total') + b.metrics.get('mails_duplicates_skipped_total')).toBe(0);
  });
});
