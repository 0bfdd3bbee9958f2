/** One stored entry: its value as JSON text, and when it was last put (ms since the epoch). */
export interface StoredEntry {
  key: string;
  value: string;
  at: number;
}

/**
 * Where an in-process key-value bucket keeps its entries beyond the process (values as their JSON text). The
 * in-process messaging loads a bucket's entries once when the bucket is first opened, and writes every change
 * here before it changes the copy in memory: a `put` that resolved has been stored.
 */
export interface BucketStore {
  /** Every entry, oldest put first. */
  load(): Promise<StoredEntry[]>;
  put(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Removes the entries last put more than `maxAgeMs` ago (a bucket with a maximum age: at load, then now and then). */
  prune(maxAgeMs: number): Promise<void>;
}
