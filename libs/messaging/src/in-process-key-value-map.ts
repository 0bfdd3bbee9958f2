import type { BucketStore } from './bucket-store';
import type { KeyValueMap } from './key-value-map';
import type { Subscription } from './subscription';

type Watcher = (key: string, value: string | undefined) => void;

function assertKey(key: string): void {
  if (typeof key !== 'string' || !/^[-/_=.a-zA-Z0-9]+$/.test(key) || key.startsWith('.') || key.endsWith('.')) throw new Error(`invalid key "${key}"`);
}

/** How often, at most, a bucket with a maximum age prunes its store (it expires memory on every access). */
const STORE_PRUNE_INTERVAL_MS = 60_000;

/**
 * The shared state of one bucket; values are stored as JSON so readers never share objects with writers. With a
 * store, `write` stores a change first (one write at a time, so the store ends in the order memory does) and
 * applies it in memory once stored; a failed store write changes nothing and rejects. With `maxAgeMs`, an entry
 * is gone that long after its last put: from memory at the next access, from the store at most a minute later.
 */
export class InProcessBucket {
  readonly data = new Map<string, string>();
  readonly watchers = new Set<Watcher>();
  /** Each key's last put (ms), oldest first: expiring walks from the front and stops at the first young one. */
  private readonly putAt = new Map<string, number>();
  private writes: Promise<unknown> = Promise.resolve();
  private prunedAt = 0;

  constructor(
    private readonly store?: BucketStore,
    public maxAgeMs?: number,
  ) {}

  /** Fills the bucket from its store (once, before anyone reads it). */
  async load(): Promise<void> {
    if (!this.store) return;
    if (this.maxAgeMs !== undefined) {
      this.prunedAt = Date.now();
      await this.store.prune(this.maxAgeMs);
    }
    for (const e of await this.store.load()) {
      this.data.set(e.key, e.value);
      this.putAt.set(e.key, e.at);
    }
  }

  /** Drops the entries past the maximum age (silently, as a JetStream bucket's max age does). */
  expire(): void {
    const maxAge = this.maxAgeMs;
    if (maxAge === undefined) return;
    const now = Date.now();
    for (const [key, at] of this.putAt) {
      if (now - at < maxAge) break;
      this.putAt.delete(key);
      this.data.delete(key);
    }
    const store = this.store;
    if (store && now - this.prunedAt >= Math.min(maxAge, STORE_PRUNE_INTERVAL_MS)) {
      this.prunedAt = now;
      this.writes = this.writes.then(() => store.prune(maxAge)).catch(() => undefined); // tried again next interval
    }
  }

  write(key: string, value: string | undefined): Promise<void> {
    const store = this.store;
    if (!store) return Promise.resolve(this.change(key, value));
    const stored = this.writes.then(async () => {
      await (value === undefined ? store.delete(key) : store.put(key, value));
      this.change(key, value);
    });
    this.writes = stored.catch(() => undefined);
    return stored;
  }

  /** A delete of a key that is not there changes nothing (no watcher hears of it). */
  private change(key: string, value: string | undefined): void {
    this.putAt.delete(key); // a put moves the key to the back (the youngest)
    if (value === undefined) {
      if (!this.data.delete(key)) return;
    } else {
      this.data.set(key, value);
      this.putAt.set(key, Date.now());
    }
    for (const w of this.watchers) queueMicrotask(() => w(key, value));
  }
}

export class InProcessKeyValueMap<T> implements KeyValueMap<T> {
  constructor(
    private readonly bucket: InProcessBucket,
    private readonly isClosed: () => boolean,
  ) {}

  private open(): void {
    if (this.isClosed()) throw new Error('messaging is closed');
    this.bucket.expire();
  }

  async get(key: string): Promise<T | undefined> {
    this.open();
    assertKey(key);
    const v = this.bucket.data.get(key);
    return v === undefined ? undefined : (JSON.parse(v) as T);
  }

  async put(key: string, value: T): Promise<void> {
    this.open();
    assertKey(key);
    await this.bucket.write(key, JSON.stringify(value === undefined ? null : value));
  }

  async delete(key: string): Promise<void> {
    this.open();
    assertKey(key);
    await this.bucket.write(key, undefined);
  }

  async entries(): Promise<Map<string, T>> {
    this.open();
    return new Map([...this.bucket.data].map(([k, v]) => [k, JSON.parse(v) as T]));
  }

  async watch(cb: (key: string, value: T | undefined) => void): Promise<Subscription> {
    this.open();
    let active = true;
    const w: Watcher = (k, v) => {
      if (active) cb(k, v === undefined ? undefined : (JSON.parse(v) as T));
    };
    const initial = [...this.bucket.data];
    this.bucket.watchers.add(w);
    for (const [k, v] of initial) w(k, v);
    return {
      stop: async () => {
        active = false;
        this.bucket.watchers.delete(w);
      },
    };
  }
}
