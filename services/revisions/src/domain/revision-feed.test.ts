import { RevisionFeed } from './revision-feed';

/** A database stand-in for the feed's three statements: revision 2 is missing while transaction 7 runs. */
function fakePool(state: { running: boolean }) {
  const row = (id: number) => ({
    in_progress: state.running ? ['7'] : [],
    running: ['7'],
    id: String(id),
    activity: null,
    collection: 'c',
    item: '1',
    data: null,
    delta: null,
  });
  return {
    query: jest.fn(async (q: string | { text: string }) => {
      const text = typeof q === 'string' ? q : q.text;
      if (text.includes('max(id) FROM revisions')) return { rows: [{ id: '1', running: [] }] };
      if (text.includes('pg_snapshot_xip') && !text.includes('LATERAL')) return { rows: [{ ids: [] }] };
      return { rows: [row(3)] };
    }),
  };
}

describe('RevisionFeed', () => {
  it('waits for a missing id while the transaction that may hold it runs, says so once, then goes on', async () => {
    const state = { running: true };
    const warn = jest.fn();
    const feed = new RevisionFeed(fakePool(state) as never, { logger: { error: jest.fn(), warn }, gapRetryMs: 5, reportGapAfterMs: 20 });
    const got: number[] = [];
    await feed.subscribe((revs) => got.push(...revs.map((r) => r.row.id)));
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatchObject({ cursor: 1, next: 3, waitingFor: ['7'] });
    state.running = false;
    for (let i = 0; i < 50 && got.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(got).toEqual([3]);
    feed.close();
  });
});
