-- Issue 36: an activity's free text (Directus' `comment`), e.g. why a scheduled promote failed (`promote_failed`).
-- A nullable column without a default: added to the partitioned table and every partition without a rewrite.
ALTER TABLE "activity" ADD COLUMN "comment" TEXT;
