import type { Delivery } from './delivery';
import { maxDeliveriesReason, runHandler } from './run-handler';
import { subjectMatches } from './subject-match';
import type { SettleOutcome } from './work-queue';

export interface StoredMessage {
  seq: number;
  id: string;
  subject: string;
  payload: string;
  headers: Record<string, string>;
  time: number;
  /** Durable groups that have not finished with it yet (those that existed or were declared at publish). */
  outstanding: Set<string>;
  /** Who gave up on it, and why. */
  deadLetters: SettleOutcome['deadLetters'];
  /** Called once `outstanding` is empty. */
  onSettled: ((o: SettleOutcome) => void)[];
}

/** What a group needs from its stream. */
export interface GroupStream {
  readonly messages: Map<number, StoredMessage>;
  readonly lastSeq: number;
  readonly closed: boolean;
  settled(seq: number, durable: string): void;
  deadLetter(msg: StoredMessage, reason: string, deliveryCount: number, durable: string): void;
}

interface PendingState {
  count: number;
  token?: number; // set while a member holds the delivery
  timer?: NodeJS.Timeout;
}

export interface Member {
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
export class Group {
  private cursor = 0;
  private readonly pending = new Map<number, PendingState>();
  private ready: number[] = [];
  private members: Member[] = [];
  private rr = 0;
  private tokens = 0;
  private pumpScheduled = false;
  maxDeliver = 5;
  ackWaitMs = 30_000;

  /** Declared up front (publishers wait for it) and not yet joined by a member: its filter is not known yet. */
  placeholder = false;

  constructor(
    private readonly stream: GroupStream,
    readonly durable: string,
    public filter: string | undefined,
  ) {}

  matches(subject: string): boolean {
    return !this.filter || subjectMatches(this.filter, subject);
  }

  addMember(m: Member): void {
    this.placeholder = false;
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
    for (const m of this.stream.messages.values()) if (m.seq > this.cursor && this.matches(m.subject)) ahead++;
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
      if (msg && this.matches(msg.subject)) return msg;
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
    this.stream.settled(msg.seq, this.durable);
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
