/**
 * Where an in-process key-value bucket keeps its entries beyond the process (values as their JSON text). The
 * in-process messaging loads a bucket's entries once when the bucket is first opened, and writes every change
 * here before it changes the copy in memory: a `put` that resolved has been stored.
 */
export interface BucketStore {
  load(): Promise<Map<string, string>>;
  put(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}
