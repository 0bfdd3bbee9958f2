import { AppError } from '@vellum/errors';
import { ddlTransaction } from '../src/data/ddl-transaction';
import type { Db } from '../src/data/prisma';
import type { ItemsDeps } from '../src/domain/items-deps';
import { DEADLOCK_RETRIES, readWithFreshCatalogue, retryWrite } from '../src/domain/retry-on-schema-change';

// Unit tests of the retry rules alone (the runs are stand-ins): which failures of a write's transaction, a schema
// change's or a read run it again, and what a second failure answers.
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

  it('runs it again after a growing random pause while it deadlocks, up to DEADLOCK_RETRIES times; then 503', async () => {
    let n = 0;
    const pauses: number[] = [];
    const written = await retryWrite(
      async () => {
        if (++n < 4) throw failing('40P01');
        return 'written';
      },
      async (k) => void pauses.push(k),
    );
    expect([written, n, pauses]).toEqual(['written', 4, [1, 2, 3]]);
    n = 0;
    await expect(
      retryWrite(
        async () => {
          n++;
          throw failing('40P01');
        },
        async () => undefined,
      ),
    ).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    expect(n).toBe(DEADLOCK_RETRIES + 1);
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

describe('ddlTransaction', () => {
  /** A client whose transactions fail with `errors` in turn, then run the callback. */
  const prismaFailing = (...errors: unknown[]) => {
    const calls: unknown[] = [];
    const prisma = {
      $transaction: async (fn: (tx: unknown) => Promise<unknown>, opts: unknown) => {
        calls.push(opts);
        const e = errors.shift();
        if (e) throw e;
        return fn('tx');
      },
    } as unknown as Db;
    return { prisma, calls };
  };

  it('runs a schema change PostgreSQL aborted for a deadlock once more, however Prisma reports it', async () => {
    for (const deadlock of [
      Object.assign(new Error('Raw query failed. Code: `40P01`. Message: `deadlock detected`'), { code: 'P2010' }),
      Object.assign(new Error('write conflict or deadlock'), { code: 'P2034' }),
      Object.assign(new Error('raw'), { code: 'P2010', meta: { code: '40P01' } }),
    ]) {
      const { prisma, calls } = prismaFailing(deadlock);
      await expect(ddlTransaction(prisma, async (tx) => `done in ${String(tx)}`)).resolves.toBe('done in tx');
      expect(calls).toHaveLength(2);
    }
  });

  it('a second deadlock, or any other failure, is the caller’s', async () => {
    const twice = prismaFailing(failing('40P01'), failing('40P01'));
    await expect(ddlTransaction(twice.prisma, async () => 1)).rejects.toMatchObject({ code: '40P01' });
    const other = prismaFailing(failing('23505'));
    await expect(ddlTransaction(other.prisma, async () => 1)).rejects.toMatchObject({ code: '23505' });
    expect(other.calls).toHaveLength(1);
  });
});

describe('readWithFreshCatalogue', () => {
  const deps = { catalogue: { get: async () => undefined, getMany: async () => [], fresh: () => deps.catalogue } } as unknown as ItemsDeps;

  it('a table dropped under both tries (the collection deleted meanwhile) answers 403 FORBIDDEN', async () => {
    let n = 0;
    const read = readWithFreshCatalogue(deps, async () => {
      n++;
      throw failing('42P01');
    });
    await expect(read).rejects.toBeInstanceOf(AppError);
    await expect(read).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(n).toBe(2);
  });

  it('a stale first try runs again on fresh definitions; another failure of the second is the caller’s', async () => {
    let n = 0;
    await expect(
      readWithFreshCatalogue(deps, async () => {
        if (++n === 1) throw failing('42703');
        return 'read';
      }),
    ).resolves.toBe('read');
    n = 0;
    await expect(
      readWithFreshCatalogue(deps, async () => {
        throw failing(++n === 1 ? '42P01' : '57014');
      }),
    ).rejects.toMatchObject({ code: '57014' });
  });
});
