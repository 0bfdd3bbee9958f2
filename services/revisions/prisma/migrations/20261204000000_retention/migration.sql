-- Retention (REVISIONS_RETENTION, REVISIONS_KEEP_LAST, ACTIVITY_RETENTION): an item's newest revisions are found
-- from (collection, item, id); the newest row older than the cutoff from a BRIN index on timestamp (rows arrive
-- in time order, so a BRIN summary per block range costs almost nothing to keep).
CREATE INDEX "revisions_collection_item_id_idx" ON "revisions"("collection", "item", "id");
CREATE INDEX "revisions_timestamp_idx" ON "revisions" USING BRIN ("timestamp");
CREATE INDEX "activity_timestamp_idx" ON "activity" USING BRIN ("timestamp");
