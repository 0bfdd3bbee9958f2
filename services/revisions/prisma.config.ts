import path from 'node:path';
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: path.join(__dirname, 'prisma', 'schema.prisma'),
  migrations: { path: path.join(__dirname, 'prisma', 'migrations') },
  // eslint-disable-next-line no-restricted-properties -- Prisma CLI config, not service runtime
  datasource: { url: process.env.DATABASE_URL ?? 'postgres://localhost:5432/vellum_revisions' },
});
