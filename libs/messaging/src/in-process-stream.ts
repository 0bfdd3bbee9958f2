import { resolveConsumeOptions, type ConsumeOptions } from './consume-options';
import type { DeadLetter } from './dead-letter';
import type { Delivery } from './delivery';
import { messageText } from './message-text';
import { Group, type GroupStream, type Member, type StoredMessage } from './in-process-group';
import { assertPublishSubject, subjectMatches } from './subject-match';
import type { Subscription } from './subscription';
import type { PublishOptions } from './work-queue';

const dedupeWindowMs = 2 * 60_000;
const maxDeadLetters = 10_000;

/**
 * An in-memory stream with 'workqueue' (removed once acked) or 'limits' (retained) retention. A message is
 * "settled" once every durable group that existed (or was declared) when it was published has finished with it;
 * its publisher's `onSettled` is called then.
 */
export class InProcessStream implements GroupStream {
  readonly messages = new Map<number, StoredMessage>();
  lastSeq = 0;
  closed = false;
  private readonly dedupe = new Map<string, { at: number; seq: number; dead?: boolean }>();
  private readonly groups = new Map<string, Group>();
  private readonly dead: DeadLetter[] = [];

  constructor(
    readonly name: string,
    readonly retention: 'workqueue' | 'limits',
    public subjects: string[],
    public maxAgeMs?: number,
  ) {}

  /** Durable groups that publishers wait for even before a member joined (they are created with no filter). */
  declare(durables: readonly string[]): void {
    for (const d of durables) {
      if (this.groups.has(d)) continue;
      const g = new Group(this, d, undefined);
      g.placeholder = true;
      this.groups.set(d, g);
    }
  }

  async publish(subject: string, data: unknown, opts: PublishOptions): Promise<void> {
    if (this.closed) throw new Error('messaging is closed');
    assertPublishSubject(subject);
    if (!opts || typeof opts.id !== 'string' || opts.id === '') throw new Error('publish needs a message id');
    if (!this.subjects.some((p) => subjectMatches(p, subject))) throw new Error(`subject "${subject}" is not part of stream ${this.name}`);
    const now = Date.now();
    for (const [id, d] of this.dedupe) {
      if (now - d.at < dedupeWindowMs) break;
      this.dedupe.delete(id);
    }
    const known = this.dedupe.get(opts.id);
    // a dead-lettered message published again (a replay from its producer's outbox) is a new message
    if (known && !known.dead) {
      // a duplicate: its publisher learns when the stored one is settled (at once if it already is)
      const stored = this.messages.get(known.seq);
      if (opts.onSettled) {
        if (stored && stored.outstanding.size > 0) stored.onSettled.push(opts.onSettled);
        else opts.onSettled({ deadLetters: stored ? [...stored.deadLetters] : [] });
      }
      return;
    }
    const seq = ++this.lastSeq;
    this.dedupe.delete(opts.id);
    this.dedupe.set(opts.id, { at: now, seq });
    const msg: StoredMessage = {
      seq,
      id: opts.id,
      subject,
      payload: messageText(data),
      headers: { ...(opts.headers ?? {}) },
      time: now,
      outstanding: new Set([...this.groups.values()].filter((g) => g.matches(subject)).map((g) => g.durable)),
      deadLetters: [],
      onSettled: opts.onSettled ? [opts.onSettled] : [],
    };
    this.messages.set(seq, msg);
    if (msg.outstanding.size === 0) this.release(msg);
    if (this.maxAgeMs !== undefined && this.retention === 'limits') {
      for (const [s, m] of this.messages) {
        if (now - m.time <= this.maxAgeMs) break;
        this.messages.delete(s);
        this.release(m); // discarded by the limits: nobody will handle it any more
      }
    }
    for (const g of this.groups.values()) g.schedulePump();
  }

  private release(msg: StoredMessage): void {
    msg.outstanding.clear();
    const callbacks = msg.onSettled.splice(0);
    for (const cb of callbacks) cb({ deadLetters: [...msg.deadLetters] });
  }

  /** Called when a group is done with a message (acked or dead-lettered). */
  settled(seq: number, durable: string): void {
    const msg = this.messages.get(seq);
    if (!msg) return;
    if (this.retention === 'workqueue') this.messages.delete(seq);
    if (msg.outstanding.delete(durable) && msg.outstanding.size === 0) this.release(msg);
  }

  deadLetter(msg: StoredMessage, reason: string, deliveryCount: number, durable: string): void {
    msg.deadLetters.push({ durable, reason });
    const d = this.dedupe.get(msg.id);
    if (d?.seq === msg.seq) d.dead = true;
    this.dead.push({
      id: msg.id,
      subject: msg.subject,
      data: JSON.parse(msg.payload),
      reason,
      deliveryCount,
      at: new Date().toISOString(),
      durable,
      headers: { ...msg.headers },
    });
    if (this.dead.length > maxDeadLetters) this.dead.splice(0, this.dead.length - maxDeadLetters);
  }

  async deadLetters(limit = 100): Promise<DeadLetter[]> {
    return this.dead.slice(Math.max(0, this.dead.length - limit)).map((d) => structuredClone(d));
  }

  async replayDeadLetter(id: string): Promise<boolean> {
    const i = this.dead.findLastIndex((d) => d.id === id);
    if (i < 0) return false;
    const [d] = this.dead.splice(i, 1);
    await this.publish(d.subject, d.data, { id: `${id}~replay-${Date.now().toString(36)}`, headers: d.headers });
    return true;
  }

  async consume<T>(input: ConsumeOptions<T>): Promise<Subscription> {
    if (this.closed) throw new Error('messaging is closed');
    const opts = resolveConsumeOptions(input);
    if (opts.filterSubject && !this.subjects.some((p) => subjectMatches(p, opts.filterSubject!) || p === opts.filterSubject))
      throw new Error(`filter subject "${opts.filterSubject}" is not part of stream ${this.name}`);
    let group = this.groups.get(opts.durable);
    if (!group) {
      if (this.retention === 'workqueue' && this.groups.size > 0) throw new Error(`work queue ${this.name} already has consumer ${[...this.groups.keys()][0]}`);
      group = new Group(this, opts.durable, opts.filterSubject);
      this.groups.set(opts.durable, group);
    } else if (group.placeholder) {
      group.filter = opts.filterSubject;
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
