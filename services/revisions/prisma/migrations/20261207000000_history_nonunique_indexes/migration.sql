-- vellum:no-transaction
-- Issue 18.3, step 1 of 2: the non-unique indexes that replace three unique ones in the partitioned tables of the
-- next migration (PostgreSQL refuses a unique index on a partitioned table unless it holds the partition key).
-- Built CONCURRENTLY, so an install with a large history keeps recording while they build; the next migration
-- then attaches them as they are instead of building them under its lock.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "revisions_event_id_idx" ON "revisions"("event_id");
CREATE INDEX CONCURRENTLY IF NOT EXISTS "revisions_collection_item_item_version_idx" ON "revisions"("collection", "item", "item_version");
CREATE INDEX CONCURRENTLY IF NOT EXISTS "activity_event_id_idx" ON "activity"("event_id");
