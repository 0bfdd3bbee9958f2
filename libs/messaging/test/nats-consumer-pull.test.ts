import type { Consumer } from '@nats-io/jetstream';
import { pull, type Pulls } from '../src/nats-consumer';

/** A unit test of one pull request's watchdog: the consumer is a fake whose pull request never answers. */
test('a pull request still open 2 s after its expiry is stopped, so the loop sends a fresh one', async () => {
  let stopped = false;
  let release = (): void => {};
  const ended = new Promise<void>((r) => (release = r));
  const stuck = {
    stop: () => {
      stopped = true;
      release();
    },
    [Symbol.asyncIterator]: () => ({
      // the server that held the request is gone: nothing comes, nothing ends it but stop()
      next: () => ended.then(() => ({ done: true as const, value: undefined })),
    }),
  };
  const asked: unknown[] = [];
  const consumer = { fetch: async (o: unknown) => (asked.push(o), stuck) } as unknown as Consumer;
  const p: Pulls = { consumer, handle: async () => undefined, inFlight: new Set(), fetches: new Set(), requested: 0, stopped: false, expiresMs: 1000 };
  const started = Date.now();
  await pull(p, 4);
  const took = Date.now() - started;
  expect(stopped).toBe(true);
  expect(asked).toEqual([{ max_messages: 4, expires: 1000 }]);
  expect(took).toBeGreaterThanOrEqual(2900);
  expect(took).toBeLessThan(4500);
  expect(p.requested).toBe(0);
  expect(p.fetches.size).toBe(0);
});
