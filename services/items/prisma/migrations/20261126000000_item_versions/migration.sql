-- Per-item version (issue 23.2): bumped in the write's transaction while the item's row is locked, so for one
-- item the versions follow the order in which its writes committed. Carried by every item-change event as
-- `item_version`; the revisions service records an item's revisions in that order. Rows outlive their item
-- (and its collection): a key created again continues its history instead of restarting at 1.
CREATE TABLE "item_versions" (
    "collection" TEXT NOT NULL,
    "item" TEXT NOT NULL,
    "version" BIGINT NOT NULL,

    CONSTRAINT "item_versions_pkey" PRIMARY KEY ("collection","item")
);
