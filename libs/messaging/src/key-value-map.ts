import type { Subscription } from './subscription';

export interface KeyValueMap<T> {
  get(key: string): Promise<T | undefined>;
  put(key: string, value: T): Promise<void>;
  delete(key: string): Promise<void>;
  entries(): Promise<Map<string, T>>;
  /** Initial values are delivered too; a deleted key is reported with `undefined`. */
  watch(cb: (key: string, value: T | undefined) => void): Promise<Subscription>;
}
