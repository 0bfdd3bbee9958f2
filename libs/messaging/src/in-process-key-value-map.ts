import type { BucketStore } from './bucket-store';
import type { KeyValueMap } from './key-value-map';
import type { Subscription } from './subscription';

type Watcher = (key: string, value: string | undefined) => void;

function assertKey(key: string): void {
  if (typeof key !== 'string' || !/^[-/_=.a-zA-Z0-9]+$/.test(key) || key.startsWith('.') || key.endsWith('.'))
    throw new Error(`invalid key "${key}"`);
}

/**
 * The shared state of one bucket; values are stored as JSON so readers never share objects with writers. With a
 * store, `write` stores a change first (one write at a time, so the store ends in the order memory does) and
 * applies it in memory once stored; a failed store write changes nothing and rejects.
 */
export class InProcessBucket {
  readonly data = new Map<string, string>();
  readonly watchers = new Set<Watcher>();
  private writes: Promise<unknown> = Promise.resolve();

  constructor(private readonly store?: BucketStore) {}

  /** Fills the bucket from its store (once, before anyone reads it). */
  async load(): Promise<void> {
    if (!this.store) return;
    for (const [k, v] of await this.store.load()) this.data.set(k, v);
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
    if (value === undefined) {
      if (!this.data.delete(key)) return;
    } else this.data.set(key, value);
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
