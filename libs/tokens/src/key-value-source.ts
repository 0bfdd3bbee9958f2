/** Structurally a `KeyValueMap<T>` of @vellum/messaging (only `watch` is used here). */
export interface WatchableMap<T> {
  watch(cb: (key: string, value: T | undefined) => void): Promise<{ stop(): Promise<void> }>;
}

/** Structurally the `keyValue` of @vellum/messaging's `Messaging`. */
export interface KeyValueSource {
  keyValue<T>(bucket: string): Promise<WatchableMap<T> & { get(key: string): Promise<T | undefined>; put(key: string, value: T): Promise<void> }>;
}
