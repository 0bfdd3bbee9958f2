import { DiscardPolicy, RetentionPolicy, StorageType, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import { headers as natsHeaders, nanos } from '@nats-io/transport-node';
import type { DeadLetter } from './dead-letter';
import { ensureStream } from './nats-streams';
import type { NatsNames } from './nats-names';

const h = {
  reason: 'Vellum-Dlq-Reason',
  id: 'Vellum-Dlq-Id',
  subject: 'Vellum-Dlq-Subject',
  count: 'Vellum-Dlq-Delivery-Count',
  durable: 'Vellum-Dlq-Durable',
  at: 'Vellum-Dlq-At',
};

const headerSafe = (s: string): string => s.replace(/[\r\n]+/g, ' ').slice(0, 2000);

/** The dead-letter stream `<name>_DLQ` (subjects `dlq.<name>.<original subject>`) of one queue or event stream. */
export class NatsDeadLetters {
  readonly stream: string;
  private readonly subjectBase: string;

  constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly names: NatsNames,
    private readonly name: string,
    private readonly publishTimeoutMs: number,
    private readonly replicas?: number,
  ) {
    this.stream = names.name('stream', `${name}_DLQ`);
    this.subjectBase = names.subject(`dlq.${name}`);
  }

  private originalSubject(logical: string): string {
    return this.names.subject(logical);
  }

  ensure(): Promise<void> {
    return ensureStream(this.jsm, {
      name: this.stream,
      subjects: [`${this.subjectBase}.>`],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      max_msgs: 100_000,
      discard: DiscardPolicy.Old,
      duplicate_window: nanos(2 * 60_000),
      ...(this.replicas !== undefined && { num_replicas: this.replicas }),
    });
  }

  /** Stores the dead letter; dedupe on the stream sequence makes a retry after a crash harmless. */
  async add(m: JsMsg, dl: Omit<DeadLetter, 'data' | 'at'>): Promise<void> {
    const hdrs = natsHeaders();
    if (m.headers) for (const [k, vs] of m.headers) if (!k.startsWith('Nats-')) for (const v of vs) hdrs.append(k, v);
    hdrs.set(h.reason, headerSafe(dl.reason || 'terminated'));
    hdrs.set(h.id, headerSafe(dl.id));
    hdrs.set(h.subject, dl.subject);
    hdrs.set(h.count, String(dl.deliveryCount));
    hdrs.set(h.durable, dl.durable ?? '');
    hdrs.set(h.at, new Date().toISOString());
    await this.js.publish(`${this.subjectBase}.${dl.subject}`, m.data, {
      msgID: `${dl.durable ?? ''}:${dl.id}:${m.info.streamSequence}`,
      headers: hdrs,
      timeout: this.publishTimeoutMs,
    });
  }

  /** Publishes the newest dead letter with this id again (new message id) and deletes it from the DLQ stream. */
  async replay(id: string, scan = 10_000): Promise<boolean> {
    const found = (await this.entries(scan)).filter((e) => e.dl.id === id).pop();
    if (!found) return false;
    const hdrs = natsHeaders();
    for (const [k, v] of Object.entries(found.dl.headers ?? {})) hdrs.set(k, v);
    await this.js.publish(this.originalSubject(found.dl.subject), JSON.stringify(found.dl.data), {
      msgID: `${id}~replay-${found.seq}`,
      headers: hdrs,
      timeout: this.publishTimeoutMs,
    });
    await this.jsm.streams.deleteMessage(this.stream, found.seq);
    return true;
  }

  async list(limit = 100): Promise<DeadLetter[]> {
    return (await this.entries(limit)).map((e) => e.dl);
  }

  private async entries(limit: number): Promise<{ seq: number; dl: DeadLetter }[]> {
    if (limit <= 0) return [];
    const { state } = await this.jsm.streams.info(this.stream);
    if (state.messages === 0) return [];
    const first = Math.max(state.first_seq, state.last_seq - limit + 1);
    const seqs = Array.from({ length: state.last_seq - first + 1 }, (_, i) => first + i);
    const msgs = await Promise.all(seqs.map((seq) => this.jsm.streams.getMessage(this.stream, { seq }).catch(() => null)));
    return msgs.flatMap((m) => {
      if (!m) return [];
      const get = (k: string): string => m.header?.get(k) ?? '';
      const headers: Record<string, string> = {};
      if (m.header) for (const [k, vs] of m.header) if (!k.startsWith('Nats-') && !k.startsWith('Vellum-Dlq-')) headers[k] = vs[0] ?? '';
      let data: unknown = null;
      try {
        data = m.data.length ? JSON.parse(m.string()) : null;
      } catch {
        data = m.string();
      }
      const dl: DeadLetter = {
        id: get(h.id),
        subject: get(h.subject),
        data,
        reason: get(h.reason),
        deliveryCount: Number(get(h.count)) || 0,
        at: get(h.at) || m.time.toISOString(),
        durable: get(h.durable) || undefined,
        headers,
      };
      return [{ seq: m.seq, dl }];
    });
  }
}
