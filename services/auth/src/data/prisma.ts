import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, Prisma } from '../generated/prisma/client';

export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;
export { Prisma };
export type { User, Role, Permission, Session } from '../generated/prisma/client';

export function createPrisma(connectionString: string, max = 10): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max }) });
}

/** Prisma's unique-violation code. */
export const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === 'P2002' || (e as { code?: string })?.code === '23505';
