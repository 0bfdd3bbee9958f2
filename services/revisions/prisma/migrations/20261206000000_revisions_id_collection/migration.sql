-- Issue 18.1: the revisions in id order with their collection, so a list or a deep offset of a role reading many
-- collections (a filter on `collection`, in id order) reads the index alone — no visit of the rows of collections
-- it cannot read. (A role reading a few collections merges revisions_collection_id_idx per collection instead.)
CREATE INDEX IF NOT EXISTS "revisions_id_collection_idx" ON "revisions"("id", "collection");
