import { resolveConsumeOptions, type ConsumeOptions } from './consume-options';
import type { DeadLetter } from './dead-letter';
import type { Delivery } from './delivery';
import { maxDeliveriesReason, runHandler } from './run-handler';
import { assertPublishSubject, subjectMatches } from './subject-match';
import type { Subscription } from './subscription';
import type { PublishOptions } from './work-queue';

const dedupeWindowMs = 2 * 60_000;
const maxDeadLetters = 10_000;

interface StoredMessage {
  seq: number;
  id: string;
  subject: string;
  payload: string;
  headers: Record<string, string>;
  time: number;
}

interface PendingState {
  count: number;
  token?: number; // set while a member holds the delivery
  timer?: NodeJS.Timeout;
}

interface Member {
  handler: (d: Delivery<unknown>) => Promise<void>;
  concurrency: number;
  inFlight: Set<Promise<void>>;
}

function timer(ms: number, fn: () => void): NodeJS.Timeout {
  const t = setTimeout(fn, ms);
  t.unref();
  return t;
}

/** One consumer group (durable) of an in-memory stream: cursor, pending deliveries, redelivery queue, members. */
class Group {
  private cursor = 0;
  private readonly pending = new Map<number, PendingState>();
  private ready: number[] = [];
  private members: Member[] = [];
  private rr = 0;
  private tokens = 0;
  private pumpScheduled = false;
  maxDeliver = 5;
  ackWaitMs = 30_000;

  constructor(
    private readonly stream: InProcessStream,
    readonly durable: string,
    readonly filter: string | undefined,
  ) {}

  addMember(m: Member): void {
    this.members.push(m);
    this.schedulePump();
  }

  removeMember(m: Member): void {
    this.members = this.members.filter((x) => x !== m);
  }

  schedulePump(): void {
    if (this.pumpScheduled || this.stream.closed) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /** Not yet delivered (past the cursor, or waiting for redelivery) and delivered but unacknowledged. */
  stats(): { pending: number; ackPending: number } {
    let ahead = 0;
    for (const m of this.stream.messages.values())
      if (m.seq > this.cursor && (!this.filter || subjectMatches(this.filter, m.subject))) ahead++;
    let held = 0;
    for (const p of this.pending.values()) if (p.token !== undefined) held++;
    return { pending: ahead + this.pending.size - held, ackPending: held };
  }

  clearTimers(): void {
    for (const p of this.pending.values()) if (p.timer) clearTimeout(p.timer);
  }

  private pickMember(): Member | undefined {
    for (let i = 0; i < this.members.length; i++) {
      const m = this.members[(this.rr + i) % this.members.length];
      if (m.inFlight.size < m.concurrency) {
        this.rr = (this.rr + i + 1) % this.members.length;
        return m;
      }
    }
    return undefined;
  }

  private nextMessage(): StoredMessage | undefined {
    while (this.ready.length > 0) {
      const seq = this.ready.shift()!;
      const p = this.pending.get(seq);
      const msg = this.stream.messages.get(seq);
      if (p && p.token === undefined && !p.timer && msg) return msg;
      if (p && !msg) this.pending.delete(seq); // discarded by limits meanwhile
    }
    while (this.cursor < this.stream.lastSeq) {
      this.cursor++;
      const msg = this.stream.messages.get(this.cursor);
      if (msg && (!this.filter || subjectMatches(this.filter, msg.subject))) return msg;
    }
    return undefined;
  }

  private pump(): void {
    while (!this.stream.closed) {
      const member = this.pickMember();
      if (!member) return;
      const msg = this.nextMessage();
      if (!msg) return;
      this.deliver(member, msg);
    }
  }

  private redeliverLater(seq: number, p: PendingState, delayMs: number): void {
    p.token = undefined;
    if (p.timer) clearTimeout(p.timer);
    p.timer = undefined;
    const enqueue = (): void => {
      p.timer = undefined;
      this.ready.push(seq);
      this.schedulePump();
    };
    if (delayMs > 0) p.timer = timer(delayMs, enqueue);
    else enqueue();
  }

  private finish(msg: StoredMessage, p: PendingState): void {
    if (p.timer) clearTimeout(p.timer);
    this.pending.delete(msg.seq);
    this.stream.settled(msg.seq);
  }

  private deliver(member: Member, msg: StoredMessage): void {
    const p: PendingState = this.pending.get(msg.seq) ?? { count: 0 };
    this.pending.set(msg.seq, p);
    p.count++;
    if (p.count > this.maxDeliver) {
      // the last delivery was never acknowledged (its consumer died): dead-letter it, as NATS does
      this.stream.deadLetter(msg, maxDeliveriesReason, p.count - 1, this.durable);
      this.finish(msg, p);
      return;
    }
    const token = ++this.tokens;
    p.token = token;
    const current = (): boolean => this.pending.get(msg.seq) === p && p.token === token;
    const armAckWait = (): void => {
      if (p.timer) clearTimeout(p.timer);
      p.timer = timer(this.ackWaitMs, () => {
        if (current()) this.redeliverLater(msg.seq, p, 0);
      });
    };
    armAckWait();
    const raw: Delivery<unknown> = {
      id: msg.id,
      subject: msg.subject,
      data: JSON.parse(msg.payload),
      headers: { ...msg.headers },
      deliveryCount: p.count,
      ack: async () => {
        if (current()) this.finish(msg, p);
      },
      nak: async (delayMs = 0) => {
        if (current()) this.redeliverLater(msg.seq, p, delayMs);
      },
      term: async (reason: string) => {
        if (!current()) return;
        this.stream.deadLetter(msg, reason, p.count, this.durable);
        this.finish(msg, p);
      },
      working: async () => {
        if (current()) armAckWait();
      },
    };
    const policy = { maxDeliver: this.maxDeliver, backoffMs: this.backoffFor(member) };
    const run = runHandler(raw, member.handler, policy)
      .catch(() => undefined)
      .finally(() => {
        member.inFlight.delete(run);
        this.schedulePump();
      });
    member.inFlight.add(run);
  }

  private readonly backoffs = new WeakMap<Member, number[]>();
  setBackoff(m: Member, backoffMs: number[]): void {
    this.backoffs.set(m, backoffMs);
  }
  private backoffFor(m: Member): number[] {
    return this.backoffs.get(m) ?? [1000];
  }
}

/** An in-memory stream with 'workqueue' (removed once acked) or 'limits' (retained) retention. */
export class InProcessStream {
  readonly messages = new Map<number, StoredMessage>();
  lastSeq = 0;
  closed = false;
  private readonly dedupe = new Map<string, number>();
  private readonly groups = new Map<string, Group>();
  private readonly dead: DeadLetter[] = [];

  constructor(
    readonly name: string,
    readonly retention: 'workqueue' | 'limits',
    public subjects: string[],
    public maxAgeMs?: number,
  ) {}

  async publish(subject: string, data: unknown, opts: PublishOptions): Promise<void> {
    if (this.closed) throw new Error('messaging is closed');
    assertPublishSubject(subject);
    if (!opts || typeof opts.id !== 'string' || opts.id === '') throw new Error('publish needs a message id');
    if (!this.subjects.some((p) => subjectMatches(p, subject)))
      throw new Error(`subject "${subject}" is not part of stream ${this.name}`);
    const now = Date.now();
    for (const [id, at] of this.dedupe) {
      if (now - at < dedupeWindowMs) break;
      this.dedupe.delete(id);
    }
    if (this.dedupe.has(opts.id)) return;
    this.dedupe.set(opts.id, now);
    const payload = JSON.stringify(data === undefined ? null : data);
    const seq = ++this.lastSeq;
    this.messages.set(seq, {
      seq,
      id: opts.id,
      subject,
      payload,
      headers: { ...(opts.headers ?? {}) },
      time: now,
    });
    if (this.maxAgeMs !== undefined && this.retention === 'limits') {
      for (const [s, m] of this.messages) {
        if (now - m.time <= this.maxAgeMs) break;
        this.messages.delete(s);
      }
    }
    for (const g of this.groups.values()) g.schedulePump();
  }

  /** Called when a group is done with a message (acked or dead-lettered). */
  settled(seq: number): void {
    if (this.retention === 'workqueue') this.messages.delete(seq);
  }

  deadLetter(msg: StoredMessage, reason: string, deliveryCount: number, durable: string): void {
    this.dead.push({
      id: msg.id,
      subject: msg.subject,
      data: JSON.parse(msg.payload),
      reason,
      deliveryCount,
      at: new Date().toISOString(),
      durable,
    });
    if (this.dead.length > maxDeadLetters) this.dead.splice(0, this.dead.length - maxDeadLetters);
  }

  async deadLetters(limit = 100): Promise<DeadLetter[]> {
    return this.dead.slice(Math.max(0, this.dead.length - limit)).map((d) => structuredClone(d));
  }

  async consume<T>(input: ConsumeOptions<T>): Promise<Subscription> {
    if (this.closed) throw new Error('messaging is closed');
    const opts = resolveConsumeOptions(input);
    if (
      opts.filterSubject &&
      !this.subjects.some((p) => subjectMatches(p, opts.filterSubject!) || p === opts.filterSubject)
    )
      throw new Error(`filter subject "${opts.filterSubject}" is not part of stream ${this.name}`);
    let group = this.groups.get(opts.durable);
    if (!group) {
      if (this.retention === 'workqueue' && this.groups.size > 0)
        throw new Error(`work queue ${this.name} already has consumer ${[...this.groups.keys()][0]}`);
      group = new Group(this, opts.durable, opts.filterSubject);
      this.groups.set(opts.durable, group);
    } else if (group.filter !== opts.filterSubject) {
      throw new Error(`consumer ${opts.durable} already exists with another filter subject`);
    }
    group.maxDeliver = opts.maxDeliver;
    group.ackWaitMs = opts.ackWaitMs;
    const member: Member = {
      handler: opts.handler as (d: Delivery<unknown>) => Promise<void>,
      concurrency: opts.concurrency,
      inFlight: new Set(),
    };
    group.setBackoff(member, opts.backoffMs);
    group.addMember(member);
    let stopping: Promise<void> | undefined;
    const g = group;
    return {
      stats: async () => g.stats(),
      stop: () =>
        (stopping ??= (async () => {
          g.removeMember(member);
          while (member.inFlight.size > 0) await Promise.all([...member.inFlight]);
        })()),
    };
  }

  close(): void {
    this.closed = true;
    for (const g of this.groups.values()) g.clearTimers();
  }
}
