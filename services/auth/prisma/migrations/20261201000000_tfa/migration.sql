-- TOTP two-factor: the secret waiting for confirmation (encrypted like tfa_secret) and the last accepted time step
-- (compare-and-set: a code is accepted at most once).
ALTER TABLE "users" ADD COLUMN "tfa_pending_secret" TEXT;
ALTER TABLE "users" ADD COLUMN "tfa_last_step" INTEGER NOT NULL DEFAULT 0;
