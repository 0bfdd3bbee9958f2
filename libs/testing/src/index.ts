export { createTestDatabase } from './test-database';
export type { TestDatabase } from './test-database';
export { fixedClock } from './clock';
export type { Clock, FixedClock } from './clock';
export { testNatsUrl, freePort, uniqueId } from './env';
export { parsePrismaSchema, expectedUdt, diffDatabaseAgainstPrismaSchema } from './prisma-schema';
export type { PrismaColumn, PrismaTable } from './prisma-schema';
export { testTokens, type TestTokens, type SignOptions } from './token-factory';
export { natsServerBinary, startOwnNatsServer, type OwnNatsServer } from './nats-server';
