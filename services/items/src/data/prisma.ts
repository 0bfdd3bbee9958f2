import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, Prisma } from '../generated/prisma/client';

export type Db = PrismaClient;
export { Prisma };

export function createPrisma(connectionString: string, max = 5): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max }) });
}
