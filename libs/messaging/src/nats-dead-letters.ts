import {
  DiscardPolicy,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
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
    names: NatsNames,
    private readonly name: string,
    private readonly publishTimeoutMs: number,
  ) {
    this.stream = names.name('stream', `${name}_DLQ`);
    this.subjectBase = names.subject(`dlq.${name}`);
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
    });
  }

  /** Stores the dead letter; dedupe on the stream sequence makes a retry after a crash harmless. */
  async add(m: JsMsg, dl: Omit<DeadLetter, 'data' | 'at'>): Promise<void> {
    const hdrs = natsHeaders();
    if (m.headers)
      for (const [k, vs] of m.headers) if (!k.startsWith('Nats-')) for (const v of vs) hdrs.append(k, v);
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

  async list(limit = 100): Promise<DeadLetter[]> {
    if (limit <= 0) return [];
    const { state } = await this.jsm.streams.info(this.stream);
    if (state.messages === 0) return [];
    const first = Math.max(state.first_seq, state.last_seq - limit + 1);
    const seqs = Array.from({ length: state.last_seq - first + 1 }, (_, i) => first + i);
    const msgs = await Promise.all(
      seqs.map((seq) => this.jsm.streams.getMessage(this.stream, { seq }).catch(() => null)),
    );
    return msgs.flatMap((m) => {
      if (!m) return [];
      const get = (k: string): string => m.header?.get(k) ?? '';
      let data: unknown = null;
      try {
        data = m.data.length ? JSON.parse(m.string()) : null;
      } catch {
        data = m.string();
      }
      return [
        {
          id: get(h.id),
          subject: get(h.subject),
          data,
          reason: get(h.reason),
          deliveryCount: Number(get(h.count)) || 0,
          at: get(h.at) || m.time.toISOString(),
          durable: get(h.durable) || undefined,
        },
      ];
    });
  }
}
