import { retryWrite } from '../src/domain/retry-on-schema-change';

// Unit test of the retry rule alone (the run is a stand-in): which failures of a write's transaction run it again.
const failing = (code: string) => Object.assign(new Error(code), { code });

describe('retryWrite', () => {
  it('runs a write PostgreSQL aborted to break a deadlock once more, as it was', async () => {
    const runs: boolean[] = [];
    const result = await retryWrite(async (cached) => {
      runs.push(cached);
      if (runs.length === 1) throw failing('40P01');
      return 'written';
    });
    expect(result).toBe('written');
    expect(runs).toEqual([true, true]);
  });

  it('a second deadlock is the caller’s', async () => {
    let n = 0;
    await expect(
      retryWrite(async () => {
        n++;
        throw failing('40P01');
      }),
    ).rejects.toMatchObject({ code: '40P01' });
    expect(n).toBe(2);
  });

  it('a stale definition runs again with the definition read afresh; any other failure is not run again', async () => {
    const runs: boolean[] = [];
    await retryWrite(async (cached) => {
      runs.push(cached);
      if (runs.length === 1) throw failing('42703');
    });
    expect(runs).toEqual([true, false]);
    let n = 0;
    await expect(
      retryWrite(async () => {
        n++;
        throw failing('23505');
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(n).toBe(1);
  });
});
