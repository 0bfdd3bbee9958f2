/** The notification channel the outbox trigger signals on every insert. */
export const OUTBOX_CHANNEL = 'vellum_outbox';

/**
 * DDL of the `outbox` table: include it verbatim in the service's migration. `seq` gives the publish order,
 * `id` is the message id (consumers and the broker dedupe on it). A statement-level trigger NOTIFYs the relay.
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
export const OUTBOX_TABLE_SQL = `
CREATE TABLE "outbox" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "destination" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB,
    "headers" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "outbox_seq_key" ON "outbox"("seq");
CREATE INDEX "outbox_unpublished_idx" ON "outbox"("seq") WHERE "published_at" IS NULL;
CREATE FUNCTION "outbox_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${OUTBOX_CHANNEL}', '');
  RETURN NULL;
END $$;
CREATE TRIGGER "outbox_notify" AFTER INSERT ON "outbox" FOR EACH STATEMENT EXECUTE FUNCTION "outbox_notify"();
`.trim();
