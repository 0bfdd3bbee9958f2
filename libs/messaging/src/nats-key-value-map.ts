import type { JetStreamManager, StreamUpdateConfig } from '@nats-io/jetstream';
import type { KV, KvEntry } from '@nats-io/kv';
import { nanos } from '@nats-io/transport-node';
import type { KeyValueMap } from './key-value-map';
import type { Subscription } from './subscription';

function value<T>(e: KvEntry | null): T | undefined {
  return e && e.operation === 'PUT' && e.length > 0 ? (JSON.parse(e.string()) as T) : undefined;
}

/**
 * A bucket created before it had a maximum age (or with another), or with another number of copies, gets these:
 * its stream's max age with a duplicate window no longer than it (JetStream refuses a longer one), its replicas.
 */
export async function alignBucket(kv: KV, jsm: JetStreamManager, o: { maxAgeMs?: number; replicas?: number }): Promise<void> {
  const { streamInfo } = await kv.status();
  const config = streamInfo.config;
  const update: Partial<StreamUpdateConfig> = {};
  if (o.maxAgeMs !== undefined && config.max_age !== nanos(o.maxAgeMs)) {
    const maxAge = nanos(o.maxAgeMs);
    Object.assign(update, { max_age: maxAge, duplicate_window: Math.min(config.duplicate_window || maxAge, maxAge) });
  }
  if (o.replicas !== undefined && config.num_replicas !== o.replicas) update.num_replicas = o.replicas;
  if (Object.keys(update).length > 0) await jsm.streams.update(config.name, update);
}

/** A KV bucket holding JSON values (history 1). */
export class NatsKeyValueMap<T> implements KeyValueMap<T> {
  constructor(
    private readonly kv: KV,
    private readonly track: (s: Subscription) => () => void,
    /** True once the connection is closed for good: a watch then ends instead of trying again. */
    private readonly closed: () => boolean = () => false,
  ) {}

  async get(key: string): Promise<T | undefined> {
    return value<T>(await this.kv.get(key));
  }

  async put(key: string, v: T): Promise<void> {
    await this.kv.put(key, JSON.stringify(v === undefined ? null : v));
  }

  async delete(key: string): Promise<void> {
    await this.kv.delete(key);
  }

  async entries(): Promise<Map<string, T>> {
    const keys: string[] = [];
    for await (const k of await this.kv.keys()) keys.push(k);
    const values = await Promise.all(keys.map((k) => this.kv.get(k)));
    const out = new Map<string, T>();
    keys.forEach((k, i) => {
      const v = value<T>(values[i]);
      if (v !== undefined) out.set(k, v);
    });
    return out;
  }

  /**
   * Delivers every key's value, then each change. When the watch's iterator ends or fails without `stop()` (the
   * client gave up re-creating its consumer, say), it watches again from the revision after the last one delivered,
   * with a growing pause (0.1 s to 5 s): a watch never goes quiet while the map believes it is live. A closed
   * connection ends it.
   */
  async watch(cb: (key: string, value: T | undefined) => void): Promise<Subscription> {
    // entries up to this revision are the initial values (the client's own "isUpdate" flag marks the last one wrong)
    const initialUpTo = (await this.kv.status()).streamInfo.state.last_seq;
    let iter = await this.kv.watch();
    let stopped = false;
    let wake = (): void => {};
    let lastRevision = 0;
    const deliver = (e: KvEntry): void => {
      lastRevision = Math.max(lastRevision, e.revision);
      if (e.revision <= initialUpTo && e.operation !== 'PUT') return; // a key deleted before the watch began is simply absent
      let v: T | undefined;
      try {
        v = value<T>(e);
      } catch {
        return; // not JSON: not ours to interpret
      }
      try {
        cb(e.key, v);
      } catch {
        // a throwing callback must not end the watch
      }
    };
    const loop = (async () => {
      for (let failures = 0; !stopped; failures++) {
        try {
          for await (const e of iter) {
            deliver(e);
            failures = 0;
          }
        } catch {
          // ended by an error: watched again below
        }
        if (stopped || this.closed()) return;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(100 * 2 ** failures, 5000));
          timer.unref(); // never what keeps a process alive
          wake = () => (clearTimeout(timer), resolve());
        });
        if (stopped || this.closed()) return;
        try {
          iter = await this.kv.watch({ resumeFromRevision: lastRevision + 1 });
          if (stopped) iter.stop();
        } catch {
          // NATS unreachable: the next round tries again
        }
      }
    })();
    let untrack = (): void => {};
    const sub: Subscription = {
      stop: async () => {
        stopped = true;
        untrack();
        iter.stop();
        wake();
        await loop;
      },
    };
    untrack = this.track(sub);
    return sub;
  }
}
