import type { Subscription } from './subscription';

export interface KeyValueOptions {
  /**
   * Entries are removed this long after their last put (JetStream: the bucket's TTL, its stream's max age; the
   * watchers are not told). Default: kept until deleted. A later opener with another age changes the bucket's.
   * On JetStream, `entries()` of such a bucket can wait for the next heartbeat when a key expires during the
   * listing (nats.js `keys()`): read such buckets with `get`.
   */
  maxAgeMs?: number;
}

export interface KeyValueMap<T> {
  get(key: string): Promise<T | undefined>;
  put(key: string, value: T): Promise<void>;
  delete(key: string): Promise<void>;
  entries(): Promise<Map<string, T>>;
  /** Initial values are delivered too; a deleted key is reported with `undefined`. */
  watch(cb: (key: string, value: T | undefined) => void): Promise<Subscription>;
}
