import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { Logger } from '@vellum/logger';
import type { Messaging, Subscription } from '@vellum/messaging';
import { EventWriter, type RecordableEvent, type WriteOutcome } from '../data/event.writer';

/**
 * The bucket through which every revisions replica tells the others that it recorded a batch (NATS JetStream in
 * the distributed topology, in memory in the embedded one): each replica's feed then reads the new revisions once.
 */
export const REVISION_NOTICES_BUCKET = 'vellum_revisions_recorded';
const KEY = 'recorded';

interface Notice {
  by: string;
  at: number;
}

/** The event writer, calling `onRecorded` after every transaction that recorded a revision (committed). */
export class NotifyingEventWriter extends EventWriter {
  constructor(
    pool: Pool,
    private readonly onRecorded: () => void,
  ) {
    super(pool);
  }

  override async write(events: RecordableEvent[], force?: ReadonlySet<string>): Promise<WriteOutcome[]> {
    const outcomes = await super.write(events, force);
    if (outcomes.includes('recorded')) this.onRecorded();
    return outcomes;
  }
}

export interface RevisionNotices {
  /** This replica recorded a batch: tell the others. */
  publish(): void;
  stop(): Promise<void>;
}

/** Watches the other replicas' notices (each one `poke`s this replica's feed) and publishes this one's. */
export async function revisionNotices(messaging: Messaging, poke: () => void, logger: Pick<Logger, 'warn'>): Promise<RevisionNotices> {
  const me = randomUUID();
  const kv = await messaging.keyValue<Notice>(REVISION_NOTICES_BUCKET);
  const sub: Subscription = await kv.watch((_key, notice) => {
    if (notice && notice.by !== me) poke();
  });
  let failing = false;
  return {
    publish: () => {
      kv.put(KEY, { by: me, at: Date.now() }).then(
        () => (failing = false),
        (err: unknown) => {
          // the others' streams still see the revisions at their next safety read
          if (!failing) logger.warn({ err }, 'telling the other replicas about new revisions failed');
          failing = true;
        },
      );
    },
    stop: () => sub.stop(),
  };
}
