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
import { resolveConsumeOptions, type ConsumeOptions } from './consume-options';
import type { NatsDeadLetters } from './nats-dead-letters';
import type { NatsNames } from './nats-names';
import { isApiError } from './nats-streams';
import { natsMessageHandler } from './nats-message-handler';
import type { Subscription } from './subscription';
import { sleep } from './with-timeout';

const consumerNotFound = 10014;
/** How long one pull request waits on the server for messages before the next one is sent. */
const fetchExpiresMs = 10_000;
/**
 * A pull request still open this long after its expiry is stuck (the server that held it restarted, its
 * reconnect check keeps failing): it is stopped so that a fresh one is sent.
 */
const fetchStuckMs = 2_000;

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
async function ensureConsumer(ctx: NatsConsumeContext, cfg: Partial<ConsumerConfig> & { durable_name: string }): Promise<void> {
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
      existing = (await ctx.jsm.consumers.info(ctx.stream, cfg.durable_name).catch(() => Promise.reject(err))).config;
    }
  }
  if ((existing.filter_subject ?? '') !== (cfg.filter_subject ?? ''))
    throw new Error(`consumer ${cfg.durable_name} already exists with filter subject "${existing.filter_subject ?? ''}"`);
  if (existing.ack_wait !== cfg.ack_wait || existing.max_deliver !== cfg.max_deliver)
    await ctx.jsm.consumers.update(ctx.stream, cfg.durable_name, {
      ack_wait: cfg.ack_wait,
      max_deliver: cfg.max_deliver,
    });
}

/** Starts one member of a durable group: pulls at most `concurrency` messages at a time and runs the handler. */
export async function natsConsume<T>(ctx: NatsConsumeContext, input: ConsumeOptions<T>): Promise<Subscription> {
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
  const pulls: Pulls = {
    consumer,
    handle: natsMessageHandler(ctx, opts),
    inFlight: new Set(),
    fetches: new Set(),
    requested: 0,
    stopped: false,
    expiresMs: fetchExpiresMs,
  };
  const loop = pullLoop(pulls, opts.concurrency);

  let stopping: Promise<void> | undefined;
  return {
    stats: async () => {
      const info = await consumer.info(true);
      return { pending: info.num_pending, ackPending: info.num_ack_pending };
    },
    stop: () =>
      (stopping ??= (async () => {
        pulls.stopped = true;
        for (const f of pulls.fetches) f.stop();
        notify(pulls);
        await loop;
        while (pulls.inFlight.size > 0) await Promise.all([...pulls.inFlight]);
      })()),
  };
}

/** A member's pull requests and the messages it is handling. */
export interface Pulls {
  consumer: Consumer;
  handle: (m: JsMsg) => Promise<void>;
  inFlight: Set<Promise<void>>;
  fetches: Set<ConsumerMessages>;
  /** Messages asked for by open pull requests and not yet received. */
  requested: number;
  stopped: boolean;
  /** Each pull request's expiry on the server. */
  expiresMs: number;
  /** Resolves the loop's wait (a slot freed, a message arrived, stop). */
  wake?: () => void;
}

function notify(p: Pulls): void {
  const w = p.wake;
  p.wake = undefined;
  w?.();
}

/** Keeps up to `concurrency` messages pulled or in hand until stopped. */
async function pullLoop(p: Pulls, concurrency: number): Promise<void> {
  while (!p.stopped) {
    const free = concurrency - p.inFlight.size - p.requested;
    // batch pulls: with a pull already open, wait until at least half of the slots are free
    if (free > 0 && (p.fetches.size === 0 && p.requested === 0 ? true : free >= Math.ceil(concurrency / 2))) {
      void pull(p, free);
      continue;
    }
    await new Promise<void>((resolve) => (p.wake = resolve));
  }
}

/**
 * One pull request for n messages; each is handled as it arrives (nak'ed once stopped). One still open
 * `fetchStuckMs` after its expiry is stopped (and the loop sends a new one).
 */
export async function pull(p: Pulls, n: number): Promise<void> {
  p.requested += n;
  let received = 0;
  let watchdog: NodeJS.Timeout | undefined;
  try {
    const iter = await p.consumer.fetch({ max_messages: n, expires: p.expiresMs });
    p.fetches.add(iter);
    if (p.stopped) iter.stop();
    watchdog = setTimeout(() => iter.stop(), p.expiresMs + fetchStuckMs);
    watchdog.unref();
    try {
      for await (const m of iter) {
        received++;
        p.requested--;
        if (p.stopped) m.nak();
        else dispatch(p, m);
        notify(p);
      }
    } finally {
      p.fetches.delete(iter);
    }
  } catch {
    await sleep(1000); // disconnected, consumer gone, ...: retry later rather than spin
  } finally {
    clearTimeout(watchdog);
    p.requested -= n - received;
    notify(p);
  }
}

function dispatch(p: Pulls, m: JsMsg): void {
  const run: Promise<void> = p
    .handle(m)
    .catch(() => undefined)
    .finally(() => {
      p.inFlight.delete(run);
      notify(p);
    });
  p.inFlight.add(run);
}
