-- Content versions (issue 36): a named draft of one item. `delta` is the deep merge of its saves; `hash` the
-- item's version (item_versions) when the draft was made. The table is not called `versions`: the service's own
-- tables share the search path with the collections' tables, and "versions" is a likely collection name.
-- No foreign key to the catalogue: a version outlives nothing it needs, and its revisions outlive it.
CREATE TABLE "content_versions" (
    "id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT,
    "collection" TEXT NOT NULL,
    "item" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "date_created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "user_created" UUID,
    "date_updated" TIMESTAMPTZ(3),
    "user_updated" UUID,
    "delta" JSONB,

    CONSTRAINT "content_versions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "content_versions_collection_item_key_key" ON "content_versions"("collection", "item", "key");
