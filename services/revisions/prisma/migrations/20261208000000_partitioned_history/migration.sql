-- Issue 18.3, step 2 of 2: `activity` and `revisions` become tables partitioned by RANGE (id), one partition per
-- calendar month (UTC). Ids keep their meaning and order (list order, cursors and deep-offset blocks are
-- unchanged): a partition is a range of ids. The newest partition is open-ended ([lo, MAXVALUE)); the service
-- closes it once it holds rows of a past month and opens the next month's (src/data/partition-roll.ts), so each
-- month's rows sit in one partition that retention can swap or drop whole.
--
-- The existing rows stay where they are: each table is renamed to *_legacy and attached, without a copy, as the
-- open partition (every id); its indexes are attached as they are (the non-unique ones the previous migration built
-- replace the unique ones). The first roll closes it.
--
-- What a partitioned table cannot hold, and what replaces it:
-- * unique event_id (activity, revisions), unique (collection, item, item_version): the writer serialises each
--   item's (and each audit event's) writers with an advisory lock and checks the event id under it;
-- * the foreign keys revisions.activity → activity and revisions.parent → revisions (a referenced partition could
--   not be dropped without a scan of every referencing row): the writer inserts the activity with its revision,
--   retention keeps an activity while a revision refers to it, and sets `parent` to NULL when it prunes a parent
--   (what ON DELETE SET NULL did).

-- What the partitioned tables cannot hold (see above).
ALTER TABLE "revisions" DROP CONSTRAINT "revisions_activity_fkey";
ALTER TABLE "revisions" DROP CONSTRAINT "revisions_parent_fkey";
DROP INDEX "revisions_event_id_key";
DROP INDEX "revisions_collection_item_item_version_key";
DROP INDEX "activity_event_id_key";

-- activity
ALTER TABLE "activity" RENAME TO "activity_legacy";
ALTER INDEX "activity_pkey" RENAME TO "activity_legacy_pkey";
ALTER INDEX "activity_collection_id_idx" RENAME TO "activity_legacy_collection_id_idx";
ALTER INDEX "activity_timestamp_idx" RENAME TO "activity_legacy_timestamp_idx";
ALTER INDEX "activity_event_id_idx" RENAME TO "activity_legacy_event_id_idx";
CREATE TABLE "activity" (LIKE "activity_legacy" INCLUDING DEFAULTS) PARTITION BY RANGE ("id");
ALTER TABLE "activity" ADD CONSTRAINT "activity_pkey" PRIMARY KEY ("id");
CREATE INDEX "activity_collection_id_idx" ON "activity"("collection", "id");
CREATE INDEX "activity_timestamp_idx" ON "activity" USING BRIN ("timestamp");
CREATE INDEX "activity_event_id_idx" ON "activity"("event_id");
ALTER SEQUENCE "activity_id_seq" OWNED BY "activity"."id";
ALTER TABLE "activity_legacy" ALTER COLUMN "id" DROP DEFAULT;

-- revisions
ALTER TABLE "revisions" RENAME TO "revisions_legacy";
ALTER INDEX "revisions_pkey" RENAME TO "revisions_legacy_pkey";
ALTER INDEX "revisions_collection_id_idx" RENAME TO "revisions_legacy_collection_id_idx";
ALTER INDEX "revisions_id_collection_idx" RENAME TO "revisions_legacy_id_collection_idx";
ALTER INDEX "revisions_collection_item_timestamp_idx" RENAME TO "revisions_legacy_collection_item_timestamp_idx";
ALTER INDEX "revisions_collection_item_id_idx" RENAME TO "revisions_legacy_collection_item_id_idx";
ALTER INDEX "revisions_collection_item_item_version_idx" RENAME TO "revisions_legacy_collection_item_item_version_idx";
ALTER INDEX "revisions_timestamp_idx" RENAME TO "revisions_legacy_timestamp_idx";
ALTER INDEX "revisions_activity_idx" RENAME TO "revisions_legacy_activity_idx";
ALTER INDEX "revisions_parent_idx" RENAME TO "revisions_legacy_parent_idx";
ALTER INDEX "revisions_parent_event_idx" RENAME TO "revisions_legacy_parent_event_idx";
ALTER INDEX "revisions_event_id_idx" RENAME TO "revisions_legacy_event_id_idx";
CREATE TABLE "revisions" (LIKE "revisions_legacy" INCLUDING DEFAULTS) PARTITION BY RANGE ("id");
ALTER TABLE "revisions" ADD CONSTRAINT "revisions_pkey" PRIMARY KEY ("id");
CREATE INDEX "revisions_collection_id_idx" ON "revisions"("collection", "id");
CREATE INDEX "revisions_id_collection_idx" ON "revisions"("id", "collection");
CREATE INDEX "revisions_collection_item_timestamp_idx" ON "revisions"("collection", "item", "timestamp");
CREATE INDEX "revisions_collection_item_id_idx" ON "revisions"("collection", "item", "id");
CREATE INDEX "revisions_collection_item_item_version_idx" ON "revisions"("collection", "item", "item_version");
CREATE INDEX "revisions_timestamp_idx" ON "revisions" USING BRIN ("timestamp");
CREATE INDEX "revisions_activity_idx" ON "revisions"("activity");
CREATE INDEX "revisions_parent_idx" ON "revisions"("parent");
CREATE INDEX "revisions_parent_event_idx" ON "revisions"("parent_event");
CREATE INDEX "revisions_event_id_idx" ON "revisions"("event_id");
ALTER SEQUENCE "revisions_id_seq" OWNED BY "revisions"."id";
ALTER TABLE "revisions_legacy" ALTER COLUMN "id" DROP DEFAULT;

-- The old rows: the open partition, until the first roll closes it.
ALTER TABLE "activity" ATTACH PARTITION "activity_legacy" FOR VALUES FROM (MINVALUE) TO (MAXVALUE);
ALTER TABLE "revisions" ATTACH PARTITION "revisions_legacy" FOR VALUES FROM (MINVALUE) TO (MAXVALUE);
