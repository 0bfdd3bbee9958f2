/** Where a consumer group stands: what it has not been given yet (lag) and what it holds unacknowledged. */
export interface ConsumerStats {
  pending: number;
  ackPending: number;
}

export interface Subscription {
  /** Stop fetching, wait for in-flight handlers to finish (graceful drain). */
  stop(): Promise<void>;
  /** The consumer group's backlog (for metrics); absent on watches. */
  stats?(): Promise<ConsumerStats>;
}
