-- Scheduled promote (issue 36): the version row is the job. `publish_at` when to promote; who scheduled it
-- (user, role, admin flag: the promote runs with that role's rules at run time); `publish_hash` the item's hash
-- when it was scheduled (checked at run time unless `publish_force`); `publish_status` scheduled / done / failed.
ALTER TABLE "content_versions"
    ADD COLUMN "publish_at" TIMESTAMPTZ(3),
    ADD COLUMN "publish_force" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "publish_user" UUID,
    ADD COLUMN "publish_role" TEXT,
    ADD COLUMN "publish_admin" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "publish_hash" TEXT,
    ADD COLUMN "publish_status" TEXT,
    ADD COLUMN "publish_error" TEXT,
    ADD CONSTRAINT "content_versions_publish_status_check" CHECK ("publish_status" IN ('scheduled', 'done', 'failed'));
-- the scheduler's claim: the due rows, oldest first
CREATE INDEX "content_versions_publish_due_idx" ON "content_versions"("publish_at") WHERE "publish_status" = 'scheduled';
