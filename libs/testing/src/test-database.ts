// A fresh, migrated database per test file on the server named by TEST_DATABASE_URL. The migrations run once
// per distinct set of migration files, into a template database whose name carries their hash; every test
// database is then a cheap copy (CREATE DATABASE ... TEMPLATE).
import { createHash, randomBytes } from 'node:crypto';
import { databaseUrl, dropDatabase, migrate, readMigrations, withClient } from '@vellum/db';

export interface TestDatabase {
  url: string;
  /** The database name (addition). */
  name: string;
  drop(): Promise<void>;
}

const TEST_PREFIX = 'vellum_test_';
const TEMPLATE_PREFIX = 'vellum_tpl_';
const BUILD_PREFIX = 'vellum_tplbuild_';
/** Test databases older than this are from crashed or interrupted runs. */
const STALE_MS = 3 * 60 * 60 * 1000;
/** pg_advisory_lock(int, int) class for template builds; the second key is derived from the hash. */
const LOCK_CLASS = 0x76656c6c; // "vell"

export function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    throw new Error(
      'TEST_DATABASE_URL is not set. Run tests through the root Jest config (its global setup starts an ' +
        'embedded PostgreSQL), or set TEST_DATABASE_URL=postgres://user@host:port/postgres.',
    );
  }
  return url;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const stamp = () => Date.now().toString(36);

/** Hash of the migration names and contents: the template's identity. */
async function migrationsHash(migrationsDir: string): Promise<string> {
  const h = createHash('sha256');
  for (const m of await readMigrations(migrationsDir)) h.update(`${m.name}\0${m.checksum}\0`);
  return h.digest('hex').slice(0, 16);
}

/** Create the template for this migration set unless it exists; serialised across processes by an advisory lock. */
async function ensureTemplate(admin: string, migrationsDir: string): Promise<string> {
  const hash = await migrationsHash(migrationsDir);
  const template = `${TEMPLATE_PREFIX}${hash}`;
  return withClient(admin, async (client) => {
    const exists = async () => ((await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [template])).rowCount ?? 0) > 0;
    if (await exists()) return template;
    const key = Number.parseInt(hash.slice(0, 8), 16) | 0;
    await client.query('SELECT pg_advisory_lock($1, $2)', [LOCK_CLASS, key]);
    try {
      if (await exists()) return template;
      // Built under another name and renamed when complete: the template name never refers to a half-migrated
      // database, even if this process dies mid-way.
      const building = `${BUILD_PREFIX}${stamp()}_${randomBytes(4).toString('hex')}`;
      await client.query(`CREATE DATABASE ${quote(building)}`);
      try {
        await migrate({ connectionString: databaseUrl(admin, building), migrationsDir });
        // Nobody may connect to a template (CREATE DATABASE ... TEMPLATE fails while anyone is connected).
        await client.query(`ALTER DATABASE ${quote(building)} WITH ALLOW_CONNECTIONS false`);
        await client.query(`ALTER DATABASE ${quote(building)} RENAME TO ${quote(template)}`);
      } catch (err) {
        await client.query(`DROP DATABASE IF EXISTS ${quote(building)} WITH (FORCE)`).catch(() => undefined);
        throw err;
      }
      return template;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_CLASS, key]).catch(() => undefined);
    }
  });
}

let staleSweep: Promise<void> | undefined;

/** Drop test databases (and abandoned template builds) left by runs that never dropped them. Best effort. */
async function dropStaleDatabases(admin: string): Promise<void> {
  const cutoff = Date.now() - STALE_MS;
  const { rows } = await withClient(admin, (c) =>
    c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname LIKE $2`, [`${TEST_PREFIX}%`, `${BUILD_PREFIX}%`]),
  );
  for (const { datname } of rows) {
    const created = Number.parseInt(datname.replace(TEST_PREFIX, '').replace(BUILD_PREFIX, '').split('_')[0]!, 36);
    if (Number.isFinite(created) && created < cutoff) await dropDatabase(admin, datname).catch(() => undefined);
  }
}

/**
 * Drop a test database once the sessions its test closed have gone: pg's `pool.end()` resolves before the
 * closing clients' backends have exited, and DROP … WITH (FORCE) would terminate them (57P01) — an error event on
 * a pool the test already let go, reported by Jest as an unhandled error of whatever test runs then. Waits up to
 * 5 s for the backends to leave, then forces.
 */
async function settleThenDrop(admin: string, name: string): Promise<void> {
  await withClient(admin, async (c) => {
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      const { rows } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
      if ((rows[0]?.n ?? 0) === 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
  });
  await dropDatabase(admin, name);
}

export async function createTestDatabase(opts: { migrationsDir: string }): Promise<TestDatabase> {
  const admin = adminUrl();
  staleSweep ??= dropStaleDatabases(admin).catch(() => undefined);
  const template = await ensureTemplate(admin, opts.migrationsDir);
  const name = `${TEST_PREFIX}${stamp()}_${randomBytes(5).toString('hex')}`;
  await withClient(admin, (c) => c.query(`CREATE DATABASE ${quote(name)} TEMPLATE ${quote(template)}`));
  await staleSweep;
  let dropped: Promise<void> | undefined;
  return {
    name,
    url: databaseUrl(admin, name),
    drop: () => (dropped ??= settleThenDrop(admin, name)),
  };
}
