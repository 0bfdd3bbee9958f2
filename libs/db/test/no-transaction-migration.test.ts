import { migrate, MigrationFailedError, NO_TRANSACTION } from '../src';
import { concurrentIndexNames, statementsOf } from '../src/no-transaction-migration';
import { migrationsDir, query, scratchDatabase } from './scratch';

const INIT = 'CREATE TABLE "t" (id serial PRIMARY KEY, k text NOT NULL);\nINSERT INTO "t" (k) SELECT md5(i::text) FROM generate_series(1, 2000) i;\n';
const CONCURRENT = `${NO_TRANSACTION}
-- a unique index built without blocking writes; both statements idempotent
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "t_k_key"
  ON "t" (k);
CREATE INDEX CONCURRENTLY IF NOT EXISTS t_id_k ON "t" (id, k);
`;
const indexes = (url: string) =>
  query<{ name: string; valid: boolean }>(
    url,
    `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname IN ('t_k_key', 't_id_k') ORDER BY 1`,
  );
const recorded = (url: string) =>
  query<{ migration_name: string; finished: boolean; applied_steps_count: number }>(
    url,
    `SELECT migration_name, finished_at IS NOT NULL AS finished, applied_steps_count FROM "_prisma_migrations" ORDER BY started_at, migration_name`,
  );

async function expectBothApplied(url: string) {
  expect(await indexes(url)).toEqual([
    { name: 't_id_k', valid: true },
    { name: 't_k_key', valid: true },
  ]);
  expect((await recorded(url)).map((r) => [r.migration_name, r.finished, r.applied_steps_count])).toEqual([
    ['20260101000000_init', true, 1],
    ['20260102000000_concurrent', true, 2],
  ]);
}

describe('no-transaction migrations', () => {
  it('run CREATE INDEX CONCURRENTLY (refused inside a transaction), are recorded as finished, and apply once', async () => {
    const url = await scratchDatabase();
    const dir = migrationsDir({ '20260101000000_init': INIT, '20260102000000_concurrent': CONCURRENT });
    expect((await migrate({ connectionString: url, migrationsDir: dir })).applied).toEqual(['20260101000000_init', '20260102000000_concurrent']);
    await expectBothApplied(url);
    expect((await migrate({ connectionString: url, migrationsDir: dir })).applied).toEqual([]);
    // the same statements as an ordinary (transactional) migration are refused by PostgreSQL
    const plain = migrationsDir({ '20260101000000_init': INIT, '20260102000000_concurrent': CONCURRENT.replace(NO_TRANSACTION, '-- plain') });
    await expect(migrate({ connectionString: await scratchDatabase(), migrationsDir: plain })).rejects.toThrow(/cannot run inside a transaction block/);
  });

  it('an interrupted run stays started, its INVALID index is dropped, and the next start runs it again to the end', async () => {
    const url = await scratchDatabase();
    const dir = migrationsDir({ '20260101000000_init': INIT, '20260102000000_concurrent': CONCURRENT });
    await migrate({ connectionString: url, migrationsDir: migrationsDir({ '20260101000000_init': INIT }) });
    await query(url, `INSERT INTO "t" (k) VALUES ('dup'), ('dup')`); // the unique build fails and leaves its index INVALID
    await expect(migrate({ connectionString: url, migrationsDir: dir })).rejects.toThrow(/outside a transaction.*runs again/s);
    expect(await indexes(url)).toEqual([{ name: 't_k_key', valid: false }]);
    expect((await recorded(url)).map((r) => [r.migration_name, r.finished])).toEqual([
      ['20260101000000_init', true],
      ['20260102000000_concurrent', false],
    ]);
    await query(url, `DELETE FROM "t" WHERE k = 'dup' AND id = (SELECT max(id) FROM "t")`);
    expect((await migrate({ connectionString: url, migrationsDir: dir })).applied).toEqual(['20260102000000_concurrent']);
    await expectBothApplied(url);
  });

  it('a started ordinary migration is still left to an operator', async () => {
    const url = await scratchDatabase();
    const dir = migrationsDir({ '20260101000000_init': INIT });
    await migrate({ connectionString: url, migrationsDir: dir });
    await query(url, `UPDATE "_prisma_migrations" SET finished_at = NULL`);
    await expect(migrate({ connectionString: url, migrationsDir: dir })).rejects.toBeInstanceOf(MigrationFailedError);
  });

  it('splits statements at a ";" ending a line (comment lines between them left out), names the concurrent indexes, refuses dollar quotes and a loose end', () => {
    expect(statementsOf('m', CONCURRENT)).toEqual([
      `CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "t_k_key"\n  ON "t" (k);`,
      'CREATE INDEX CONCURRENTLY IF NOT EXISTS t_id_k ON "t" (id, k);',
    ]);
    expect(concurrentIndexNames(statementsOf('m', CONCURRENT))).toEqual(['t_k_key', 't_id_k']);
    expect(concurrentIndexNames(['create index concurrently "A""b" on t (x);', 'CREATE INDEX Plain ON t (x);'])).toEqual(['A"b']);
    expect(() => statementsOf('m', `${NO_TRANSACTION}\nDO $$ BEGIN PERFORM 1; END $$;\n`)).toThrow(/dollar-quoted/);
    expect(() => statementsOf('m', `${NO_TRANSACTION}\nSELECT 1;\nSELECT 2\n`)).toThrow(/does not end with ";"/);
  });
});
