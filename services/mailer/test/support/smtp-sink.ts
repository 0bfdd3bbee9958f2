import type { Socket } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { freePort } from '@vellum/testing';

export interface ReceivedMail {
  jobId: string;
  to: string[];
  parsed: ParsedMail;
}

export type DataDecision = 'accept' | 'drop';

/**
 * A real SMTP server on loopback (npm smtp-server) that parses what it receives with mailparser. Tests can stop
 * it (connections refused), start it again on the same port, reject recipients with a reply code, and hold a
 * message's DATA until they decide what happens to it.
 */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  /** RCPT TO attempts per address (a rejected recipient is counted too). */
  readonly rcptAttempts = new Map<string, number>();
  /** address → reply code (e.g. 550, 451). */
  readonly rejectRecipients = new Map<string, number>();
  /** Called when DATA starts, before the message is accepted. */
  onData?: (session: SMTPServerSession) => Promise<DataDecision>;
  private server?: SMTPServer;
  private readonly sockets = new Set<Socket>();
  private waiters: (() => void)[] = [];

  private constructor(readonly port: number) {}

  static async start(port?: number): Promise<SmtpSink> {
    const sink = new SmtpSink(port ?? (await freePort()));
    await sink.listen();
    return sink;
  }

  get host(): string {
    return '127.0.0.1';
  }

  /** The mailer's settings for this sink: its address, plain SMTP (no STARTTLS). */
  get env(): { EMAIL_SMTP_HOST: string; EMAIL_SMTP_PORT: string; EMAIL_SMTP_IGNORE_TLS: 'true' } {
    return { EMAIL_SMTP_HOST: this.host, EMAIL_SMTP_PORT: String(this.port), EMAIL_SMTP_IGNORE_TLS: 'true' };
  }

  /**
   * A mailer that dies (or hangs) mid-send: the first DATA waits until `release()` and then loses its connection;
   * every later one is accepted (`releaseWhenNextAccepted`: the first is released then). `attempts()`: DATA so far.
   */
  holdFirst(opts: { releaseWhenNextAccepted?: boolean } = {}): { attempts: () => number; release: () => void } {
    let calls = 0;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    this.onData = async () => {
      calls++;
      if (calls === 1) {
        await held;
        return 'drop';
      }
      if (opts.releaseWhenNextAccepted) setImmediate(release);
      return 'accept';
    };
    return { attempts: () => calls, release };
  }

  get listening(): boolean {
    return !!this.server;
  }

  async listen(): Promise<void> {
    if (this.server) return;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      closeTimeout: 50,
      onRcptTo: (address, _session, cb) => {
        const a = address.address.toLowerCase();
        this.rcptAttempts.set(a, (this.rcptAttempts.get(a) ?? 0) + 1);
        const code = this.rejectRecipients.get(a);
        if (code) return cb(Object.assign(new Error(`<${a}>: recipient rejected (test)`), { responseCode: code }));
        cb();
      },
      onData: (stream, session, cb) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          void (async () => {
            const decision = this.onData ? await this.onData(session) : 'accept';
            if (decision === 'drop') {
              (session as unknown as { socket?: Socket }).socket?.destroy();
              for (const s of this.sockets) if (s.remotePort === session.remotePort) s.destroy();
              return;
            }
            const parsed = await simpleParser(Buffer.concat(chunks));
            const jobId = String(parsed.headers.get('x-vellum-job-id') ?? '');
            this.received.push({ jobId, to: session.envelope.rcptTo.map((r) => r.address), parsed });
            cb(null, 'OK: queued');
            const w = this.waiters;
            this.waiters = [];
            w.forEach((f) => f());
          })().catch((err) => cb(err as Error));
        });
      },
    });
    server.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  /** Stops listening and drops every open connection at once: new connections are refused. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }

  /** Resolves once `count` mails have been received (or rejects after timeoutMs). */
  async waitFor(count: number, timeoutMs = 15_000): Promise<ReceivedMail[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${count} mails, got ${this.received.length} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.received;
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns a truthy value (or throws the last failure after timeoutMs). */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 10_000, everyMs = 50): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
      last = new Error('condition not met');
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw last;
    await sleep(everyMs);
  }
}
