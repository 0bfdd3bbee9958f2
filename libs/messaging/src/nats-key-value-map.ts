import type { JetStreamManager } from '@nats-io/jetstream';
import type { KV, KvEntry } from '@nats-io/kv';
import { nanos } from '@nats-io/transport-node';
import type { KeyValueMap } from './key-value-map';
import type { Subscription } from './subscription';

function value<T>(e: KvEntry | null): T | undefined {
  return e && e.operation === 'PUT' && e.length > 0 ? (JSON.parse(e.string()) as T) : undefined;
}

/**
 * A bucket created before it had a maximum age (or with another) gets this one: its stream's max age, and a
 * duplicate window no longer than it (JetStream refuses a longer one).
 */
export async function alignMaxAge(kv: KV, jsm: JetStreamManager, maxAgeMs: number): Promise<void> {
  const { streamInfo } = await kv.status();
  const config = streamInfo.config;
  const maxAge = nanos(maxAgeMs);
  if (config.max_age === maxAge) return;
  await jsm.streams.update(config.name, { max_age: maxAge, duplicate_window: Math.min(config.duplicate_window || maxAge, maxAge) });
}

/** A KV bucket holding JSON values (history 1). */
export class NatsKeyValueMap<T> implements KeyValueMap<T> {
  constructor(
    private readonly kv: KV,
    private readonly track: (s: Subscription) => () => void,
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

  async watch(cb: (key: string, value: T | undefined) => void): Promise<Subscription> {
    // entries up to this revision are the initial values (the client's own "isUpdate" flag marks the last one wrong)
    const initialUpTo = (await this.kv.status()).streamInfo.state.last_seq;
    const iter = await this.kv.watch();
    const loop = (async () => {
      for await (const e of iter) {
        if (e.revision <= initialUpTo && e.operation !== 'PUT') continue; // a key deleted before the watch began is simply absent
        let v: T | undefined;
        try {
          v = value<T>(e);
        } catch {
          continue; // not JSON: not ours to interpret
        }
        try {
          cb(e.key, v);
        } catch {
          // a throwing callback must not end the watch
        }
      }
    })().catch(() => undefined);
    let untrack = (): void => {};
    const sub: Subscription = {
      stop: async () => {
        untrack();
        iter.stop();
        await loop;
      },
    };
    untrack = this.track(sub);
    return sub;
  }
}
