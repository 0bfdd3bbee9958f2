import { Client } from 'pg';
import { OUTBOX_CHANNEL } from './outbox-table';
import type { RelayLogger } from './relay-types';

export interface OutboxListener {
  /** No more reconnects (stopping). */
  halt(): void;
  /** Closes the connection. */
  close(): Promise<void>;
}

/**
 * Wake-up: LISTEN on the outbox channel (the insert trigger NOTIFYs it) and call `wake` on every notification and
 * once connected; a lost or failed connection is retried every `retryMs` while the loop polls meanwhile.
 */
export async function listenForOutbox(opts: { connectionString: string; wake: () => void; log: RelayLogger; retryMs: number }): Promise<OutboxListener> {
  const { connectionString, wake, log, retryMs } = opts;
  let stopping = false;
  let listener: Client | undefined;
  const listen = async () => {
    if (stopping) return;
    const c = new Client({ connectionString, application_name: 'vellum-outbox-listen' });
    c.on('notification', () => wake());
    c.on('error', (err) => {
      log.warn({ err }, 'outbox relay: LISTEN connection lost, polling until it is back');
      if (listener === c) listener = undefined;
      c.end().catch(() => undefined);
      if (!stopping) setTimeout(() => void listen(), retryMs).unref();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${OUTBOX_CHANNEL}`);
      listener = c;
      if (stopping) await c.end().catch(() => undefined);
      wake();
    } catch (err) {
      log.warn({ err }, 'outbox relay: cannot LISTEN, polling');
      c.end().catch(() => undefined);
      if (!stopping) setTimeout(() => void listen(), retryMs).unref();
    }
  };
  await listen();
  return {
    halt: () => {
      stopping = true;
    },
    close: async () => {
      stopping = true;
      await listener?.end().catch(() => undefined);
      listener = undefined;
    },
  };
}
