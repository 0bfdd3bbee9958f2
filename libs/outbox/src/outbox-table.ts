import path from 'node:path';

/** The notification channel the outbox trigger signals on every insert. */
export const OUTBOX_CHANNEL = 'vellum_outbox';

/**
 * The `outbox` table is migration SQL, in one place: `libs/outbox/migrations/20260101000000_outbox/migration.sql`.
 * A service includes it verbatim in its own (hand-written) migration; `libs/outbox/test/outbox-ddl.test.ts` checks
 * that every service migration creating the table does. `seq` gives the publish order, `id` is the message id
 * (consumers and the broker dedupe on it). A statement-level trigger NOTIFYs the relay on OUTBOX_CHANNEL.
 *
 * The matching Prisma model:
 * ```prisma
 * model Outbox {
 *   id           String    @id @db.Uuid
 *   seq          BigInt    @unique @default(autoincrement())
 *   destination  String
 *   subject      String
 *   payload      Json?
 *   headers      Json      @default("{}")
 *   created_at   DateTime  @default(now()) @db.Timestamptz(3)
 *   published_at DateTime? @db.Timestamptz(3)
 *   attempts     Int       @default(0)
 *   last_error   String?
 *   @@map("outbox")
 * }
 * ```
 */
export const OUTBOX_MIGRATIONS_DIR = path.join(__dirname, '..', 'migrations');
