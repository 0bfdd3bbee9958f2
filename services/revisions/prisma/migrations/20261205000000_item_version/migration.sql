-- The item's version carried by its item-change event (issue 23.2): 1, 2, 3, … in the order the item's writes
-- committed. One revision per version; an item's revisions are recorded in version order (a change whose
-- predecessor has not been recorded yet waits for it), so for one item `id` order is commit order.
ALTER TABLE "revisions" ADD COLUMN "item_version" BIGINT;
CREATE UNIQUE INDEX "revisions_collection_item_item_version_key" ON "revisions"("collection", "item", "item_version");
