import type { KeyValueMap } from './key-value-map';
import type { Subscription } from './subscription';

type Watcher = (key: string, value: string | undefined) => void;

function assertKey(key: string): void {
  if (typeof key !== 'string' || !/^[-/_=.a-zA-Z0-9]+$/.test(key) || key.startsWith('.') || key.endsWith('.'))
    throw new Error(`invalid key "${key}"`);
}

/** The shared state of one bucket; values are stored as JSON so readers never share objects with writers. */
export class InProcessBucket {
  readonly data = new Map<string, string>();
  readonly watchers = new Set<Watcher>();

  change(key: string, value: string | undefined): void {
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, value);
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
    this.bucket.change(key, JSON.stringify(value === undefined ? null : value));
  }

  async delete(key: string): Promise<void> {
    this.open();
    assertKey(key);
    if (this.bucket.data.has(key)) this.bucket.change(key, undefined);
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
