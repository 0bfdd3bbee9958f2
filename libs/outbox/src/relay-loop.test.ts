import { runRelayLoop, type RelayState } from './relay-loop';
import { relayBatch } from './relay-batch';
import { WakeUp } from './wake-up';

// One module under test: the loop's pacing. The batch itself (a database statement) is replaced.
jest.mock('./relay-batch', () => ({ relayBatch: jest.fn() }));
// a timer can fire early when the event loop's cached time lags the clock (the process descheduled): `mockEarly` ms
let mockEarly = 0;
jest.mock('node:timers/promises', () => {
  const real = jest.requireActual<typeof import('node:timers/promises')>('node:timers/promises');
  return { ...real, setTimeout: (ms: number, value?: unknown) => real.setTimeout(Math.max(0, ms - mockEarly), value) };
});
const batchMock = relayBatch as jest.MockedFunction<typeof relayBatch>;

/** Runs the loop over batches that publish `sizes` rows in turn (then stops), and the gaps between pass starts. */
async function passes(sizes: number[], batchIntervalMs: number): Promise<number[]> {
  const starts: number[] = [];
  const state: RelayState = { stopping: false, stopDeadline: Infinity, failures: 0, lastCleanup: Date.now(), idleWaiters: [] };
  let i = 0;
  batchMock.mockImplementation(async () => {
    starts.push(performance.now());
    const n = sizes[i++] ?? 0;
    if (i >= sizes.length) {
      state.stopping = true; // the last pass: the loop ends after it
      state.stopDeadline = 0;
    }
    return n;
  });
  const log = { warn: jest.fn(), error: jest.fn(), info: jest.fn() };
  const batch = { batchSize: 100, tracker: { awaiting: new Set(), backlog: 0 } } as unknown as Parameters<typeof runRelayLoop>[0]['batch'];
  await runRelayLoop({ batch, wakeUp: new WakeUp(), log, pollMs: 1000, batchIntervalMs, backoff: [10], retentionMs: 1000, state });
  return starts.slice(1).map((t, k) => t - starts[k]!);
}

describe('relay loop pacing (OUTBOX_BATCH_INTERVAL)', () => {
  it('while rows keep coming, leaves at least the interval from one pass start to the next', async () => {
    const gaps = await passes([3, 2, 1, 4], 40);
    expect(gaps).toHaveLength(3);
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(38);
  });

  it('leaves the interval even when its timer fires early (a loaded machine: a CI run saw a 31.5 ms gap for 40)', async () => {
    mockEarly = 15;
    try {
      for (const g of await passes([3, 2, 1, 4], 40)) expect(g).toBeGreaterThanOrEqual(38);
    } finally {
      mockEarly = 0;
    }
  });

  it('goes on at once after a full batch, and with no interval', async () => {
    for (const g of await passes([100, 100, 1], 200)) expect(g).toBeLessThan(50);
    for (const g of await passes([3, 2, 1], 0)) expect(g).toBeLessThan(50);
  });
});
