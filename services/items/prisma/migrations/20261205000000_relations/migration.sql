-- Relations between collections (Directus shape): the many side's column `many_collection`.`many_field` holds a key
-- of `one_collection` (null: many-to-any, where `meta.one_collection_field` names the related collection per row).
-- Removed with either collection; the content tables' foreign keys are the service's own DDL.
CREATE TABLE "relations" (
    "many_collection" TEXT NOT NULL,
    "many_field" TEXT NOT NULL,
    "one_collection" TEXT,
    "meta" JSONB,
    "schema" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "relations_pkey" PRIMARY KEY ("many_collection","many_field"),
    CONSTRAINT "relations_many_collection_fkey" FOREIGN KEY ("many_collection") REFERENCES "collections"("name") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "relations_one_collection_fkey" FOREIGN KEY ("one_collection") REFERENCES "collections"("name") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "relations_one_collection_idx" ON "relations"("one_collection");
