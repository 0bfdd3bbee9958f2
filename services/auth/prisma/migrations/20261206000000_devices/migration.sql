-- Device cookies: failed logins are counted per trusted device and in one untrusted bucket per account (in the
-- limiter store), so the account lock moves out of the users row.
CREATE TABLE "devices" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "ip" TEXT,
    "user_agent" TEXT,
    "trusted_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "devices_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "devices_user_id_idx" ON "devices"("user_id");
ALTER TABLE "devices" ADD CONSTRAINT "devices_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "users" DROP COLUMN "lock_count", DROP COLUMN "locked_until";
