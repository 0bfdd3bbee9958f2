import {
  AckPolicy,
  DeliverPolicy,
  type Consumer,
  type ConsumerConfig,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { backoffDelay, resolveConsumeOptions, type ConsumeOptions } from './consume-options';
import type { Delivery } from './delivery';
import type { NatsDeadLetters } from './nats-dead-letters';
import type { NatsNames } from './nats-names';
import { isApiError } from './nats-streams';
import { maxDeliveriesReason, runHandler } from './run-handler';
import { errorMessage } from './subject-match';
import type { Subscription } from './subscription';
import { sleep } from './with-timeout';

const consumerNotFound = 10014;
/** How long one pull request waits on the server for messages before the next one is sent. */
const fetchExpiresMs = 10_000;

export interface NatsConsumeContext {
  js: JetStreamClient;
  jsm: JetStreamManager;
  names: NatsNames;
  stream: string;
  deadLetters: NatsDeadLetters;
}

/**
 * Creates or updates the durable pull consumer. `max_deliver` is one more than the handler's limit so that a
 * message whose last delivery was never acknowledged (its consumer died) comes back once more and is
 * dead-lettered instead of being silently abandoned by the server.
 */
async function ensureConsumer(
  ctx: NatsConsumeContext,
  cfg: Partial<ConsumerConfig> & { durable_name: string },
): Promise<void> {
  let existing: ConsumerConfig | undefined;
  try {
    existing = (await ctx.jsm.consumers.info(ctx.stream, cfg.durable_name)).config;
  } catch (err) {
    if (!isApiError(err, consumerNotFound)) throw err;
  }
  if (!existing) {
    try {
      await ctx.jsm.consumers.add(ctx.stream, cfg);
      return;
    } catch (err) {
      // created concurrently by another member: fall through to the update check
      existing = (await ctx.jsm.consumers.info(ctx.stream, cfg.durable_name).catch(() => Promise.reject(err)))
        .config;
    }
  }
  if ((existing.filter_subject ?? '') !== (cfg.filter_subject ?? ''))
    throw new Error(
      `consumer ${cfg.durable_name} already exists with filter subject "${existing.filter_subject ?? ''}"`,
    );
  if (existing.ack_wait !== cfg.ack_wait || existing.max_deliver !== cfg.max_deliver)
    await ctx.jsm.consumers.update(ctx.stream, cfg.durable_name, {
      ack_wait: cfg.ack_wait,
      max_deliver: cfg.max_deliver,
    });
}

function decode(m: JsMsg): { id: string; headers: Record<string, string>; data: unknown } {
  let id = '';
  const headers: Record<string, string> = {};
  if (m.headers)
    for (const [k, vs] of m.headers) {
      if (k === 'Nats-Msg-Id') id = vs[0] ?? '';
      else if (!k.startsWith('Nats-')) headers[k] = vs[0] ?? '';
    }
  return { id, headers, data: m.data.length ? JSON.parse(m.string()) : null };
}

/** Starts one member of a durable group: pulls at most `concurrency` messages at a time and runs the handler. */
export async function natsConsume<T>(
  ctx: NatsConsumeContext,
  input: ConsumeOptions<T>,
): Promise<Subscription> {
  const opts = resolveConsumeOptions(input);
  await ensureConsumer(ctx, {
    durable_name: opts.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(opts.ackWaitMs),
    max_deliver: opts.maxDeliver + 1,
    ...(opts.filterSubject ? { filter_subject: ctx.names.subject(opts.filterSubject) } : {}),
  });
  const consumer: Consumer = await ctx.js.consumers.get(ctx.stream, opts.durable);
  const policy = { maxDeliver: opts.maxDeliver, backoffMs: opts.backoffMs };

  const inFlight = new Set<Promise<void>>();
  const fetches = new Set<ConsumerMessages>();
  let requested = 0; // messages asked for by open pull requests and not yet received
  let stopped = false;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };

  const deadLetter = async (m: JsMsg, id: string, reason: string, deliveryCount: number): Promise<void> => {
    try {
      await ctx.deadLetters.add(m, {
        id,
        subject: ctx.names.strip(m.subject),
        reason,
        deliveryCount,
        durable: opts.durable,
      });
    } catch (err) {
      m.nak(backoffDelay(opts.backoffMs, deliveryCount)); // keep it; it comes back and is dead-lettered then
      throw new Error(`dead-lettering ${id} failed: ${errorMessage(err)}`);
    }
    // Plain +TERM: nats-server 2.9 ignores a term that carries a reason (a 2.10 feature) and redelivers the
    // message after the ack wait. The reason travels with the dead-letter copy instead.
    m.term();
  };

  const handle = async (m: JsMsg): Promise<void> => {
    const deliveryCount = m.info.deliveryCount;
    let decoded: ReturnType<typeof decode>;
    try {
      decoded = decode(m);
    } catch (err) {
      await deadLetter(
        m,
        m.headers?.get('Nats-Msg-Id') ?? '',
        `undecodable payload: ${errorMessage(err)}`,
        deliveryCount,
      );
      return;
    }
    if (deliveryCount > opts.maxDeliver) {
      await deadLetter(m, decoded.id, maxDeliveriesReason, deliveryCount - 1);
      return;
    }
    const raw: Delivery<T> = {
      id: decoded.id,
      subject: ctx.names.strip(m.subject),
      data: decoded.data as T,
      headers: decoded.headers,
      deliveryCount,
      ack: async () => m.ack(),
      nak: async (delayMs?: number) => m.nak(delayMs),
      term: (reason: string) => deadLetter(m, decoded.id, reason, deliveryCount),
      working: async () => m.working(),
    };
    await runHandler(raw, opts.handler, policy);
  };

  const dispatch = (m: JsMsg): void => {
    const run: Promise<void> = handle(m)
      .catch(() => undefined)
      .finally(() => {
        inFlight.delete(run);
        notify();
      });
    inFlight.add(run);
  };

  const pull = async (n: number): Promise<void> => {
    requested += n;
    let received = 0;
    try {
      const iter = await consumer.fetch({ max_messages: n, expires: fetchExpiresMs });
      fetches.add(iter);
      if (stopped) iter.stop();
      try {
        for await (const m of iter) {
          received++;
          requested--;
          if (stopped) m.nak();
          else dispatch(m);
          notify();
        }
      } finally {
        fetches.delete(iter);
      }
    } catch {
      await sleep(1000); // disconnected, consumer gone, ...: retry later rather than spin
    } finally {
      requested -= n - received;
      notify();
    }
  };

  const loop = (async () => {
    while (!stopped) {
      const free = opts.concurrency - inFlight.size - requested;
      // batch pulls: with a pull already open, wait until at least half of the slots are free
      if (
        free > 0 &&
        (fetches.size === 0 && requested === 0 ? true : free >= Math.ceil(opts.concurrency / 2))
      ) {
        void pull(free);
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  })();

  let stopping: Promise<void> | undefined;
  return {
    stats: async () => {
      const info = await consumer.info(true);
      return { pending: info.num_pending, ackPending: info.num_ack_pending };
    },
    stop: () =>
      (stopping ??= (async () => {
        stopped = true;
        for (const f of fetches) f.stop();
        notify();
        await loop;
        while (inFlight.size > 0) await Promise.all([...inFlight]);
      })()),
  };
}
