-- Issue 37: an item as it was (src/data/as-of.repository.ts) finds its revision by an index-only descent of this
-- index in each partition — the key carries the order (timestamp, id) and the id, only the item's states
-- (`version IS NULL`: no draft saves) are in it — then reads the one row it names by id (one partition, one heap
-- page) instead of one heap page per partition.
CREATE INDEX "revisions_item_state_idx" ON "revisions" ("collection", "item", "timestamp", "id") WHERE "version" IS NULL;
