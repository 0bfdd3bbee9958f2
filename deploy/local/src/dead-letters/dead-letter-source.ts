/** One dead letter as the operator sees it. */
export interface DeadLetterRow {
  /** MAIL, ITEMS (NATS) or the producing service's outbox (embedded: auth, items). */
  where: string;
  id: string;
  subject: string;
  at: string;
  reason: string;
  deliveryCount?: number;
  durable?: string;
}

/** Where the dead letters of a topology live. */
export interface DeadLetterSource {
  describe: string;
  list(): Promise<DeadLetterRow[]>;
  /** Hands the message to its consumers again; false when no dead letter has this id. */
  replay(id: string): Promise<boolean>;
  close(): Promise<void>;
}
