import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { PrismaClient, Prisma } from '../generated/prisma/client';

export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;
export { Prisma };
export type { User, Role, Permission, Session, ApiToken, Device } from '../generated/prisma/client';

/** The `pg` pool under a client made by `createPrisma`: plain SQL on the hot paths (login) shares its connections. */
const pools = new WeakMap<PrismaClient, Pool>();

/**
 * A Prisma client over a `pg` pool of `max` connections. `$disconnect()` also ends the pool. The same pool
 * answers `pgPoolOf(client)` for plain SQL: Prisma 7 compiles every query on the main thread and an
 * interactive transaction costs a round trip per statement, which the login hot path cannot afford.
 */
export function createPrisma(connectionString: string, max = 10): PrismaClient {
  const pool = new Pool({ connectionString, max });
  // An idle connection that dies (server restart) is dropped by the pool; the next query reconnects, or fails with
  // a code that answers 503. Without a listener the 'error' event would crash the process.
  pool.on('error', () => undefined);
  const client = new PrismaClient({ adapter: new PrismaPg(pool) });
  // $disconnect() ends the pool too, also when Prisma itself never connected (only plain SQL ran).
  const disconnect = client.$disconnect.bind(client);
  client.$disconnect = async () => {
    await disconnect();
    if (!pool.ending) await pool.end();
  };
  pools.set(client, pool);
  return client;
}

/** The `pg` pool under a client made by `createPrisma`. */
export function pgPoolOf(db: PrismaClient): Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error('pgPoolOf: this Prisma client was not made by createPrisma');
  return pool;
}

/** Prisma's unique-violation code. */
export const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === 'P2002' || (e as { code?: string })?.code === '23505';

/** Prisma's foreign-key-violation code: the only foreign key a write names is its role (deleted meanwhile). */
export const isMissingReference = (e: unknown) => (e as { code?: string })?.code === 'P2003' || (e as { code?: string })?.code === '23503';
