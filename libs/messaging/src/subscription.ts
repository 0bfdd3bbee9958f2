export interface Subscription {
  /** Stop fetching, wait for in-flight handlers to finish (graceful drain). */
  stop(): Promise<void>;
}
