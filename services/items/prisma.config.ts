import path from 'node:path';
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: path.join(__dirname, 'prisma', 'schema.prisma'),
  migrations: { path: path.join(__dirname, 'prisma', 'migrations') },
  // The Prisma CLI's own configuration (not read by the service at run time).
  // eslint-disable-next-line no-restricted-properties
  datasource: { url: process.env.DATABASE_URL ?? 'postgres://localhost:5432/vellum_items' },
});
