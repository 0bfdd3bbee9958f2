-- Issue 37: an item as it was (src/data/as-of.repository.ts) reads, in each partition, the item's newest state at
-- or before a time in the statement's own order — (timestamp, id), drafts (`version` set) not in it — so each
-- partition yields one entry and one row; on (collection, item, timestamp) the rows of the newest time were read,
-- each checked for `version`, then sorted by id.
CREATE INDEX "revisions_item_state_idx" ON "revisions" ("collection", "item", "timestamp", "id") WHERE "version" IS NULL;
-- It replaces (collection, item, timestamp): every read by an item's time is of its states (`version IS NULL`), and a
-- revision write keeps as many indexes as before (issue 41: each index is work on every recorded revision).
DROP INDEX "revisions_collection_item_timestamp_idx";
