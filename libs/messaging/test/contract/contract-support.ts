import type { DeadLetter, Messaging, Subscription } from '../../src';

/** A messaging instance for one test; `destroy` (when present) removes everything it created. */
export type MessagingFactory = () => Promise<Messaging & { destroy?(): Promise<void> }>;

/** What one contract test works with: the fresh instance and `track` (its subscriptions are stopped after it). */
export interface ContractSubject {
  m: Awaited<ReturnType<MessagingFactory>>;
  track: (s: Subscription) => Subscription;
  /** The tracked subscriptions (a test that stops one itself takes it out). */
  subs: Subscription[];
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor(cond: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

/** Polls the dead letters until there is at least one (or 5 s passed). */
export async function deadLettersOf(source: { deadLetters(limit?: number): Promise<DeadLetter[]> }): Promise<DeadLetter[]> {
  const deadline = Date.now() + 5000;
  let dead = await source.deadLetters();
  while (dead.length === 0 && Date.now() < deadline) dead = await sleep(20).then(() => source.deadLetters());
  return dead;
}

/** Bounds a stop() so that a test whose handler hangs fails instead of hanging the run. */
async function stopWithin(s: Subscription, ms = 5000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`stop() did not finish within ${ms} ms`)), ms)));
  try {
    await Promise.race([s.stop(), late]);
  } finally {
    clearTimeout(timer); // a pending timer would keep the test worker alive after the run
  }
}

export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

let seq = 0;
export const uid = (p: string) => `${p}-${Date.now().toString(36)}-${++seq}`;

/** A fresh instance per test (`factory`), its subscriptions stopped and the instance destroyed and closed after it. */
export function useMessaging(factory: MessagingFactory): () => ContractSubject {
  let m: ContractSubject['m'];
  const subs: Subscription[] = [];
  const track = (s: Subscription) => (subs.push(s), s);

  beforeEach(async () => {
    m = await factory();
  });

  afterEach(async () => {
    try {
      await Promise.all(subs.splice(0).map((s) => stopWithin(s)));
    } finally {
      await m.destroy?.();
      await m.close();
    }
  });
  return () => ({ m, track, subs });
}
