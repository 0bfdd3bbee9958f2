-- Revisions per (collection, id block of 4096 ids), kept by the writer in the same transaction as the inserts
-- (like record_counts). A deep offset ordered by id finds the block holding its first row by summing these
-- (N/4096 × collections rows, no scan of the revisions) and reads at most one block of the index from there.
-- The block size is REVISION_BLOCK_SIZE in src/data/record-counts.repository.ts.
CREATE TABLE "revision_blocks" (
    "collection" TEXT NOT NULL,
    "block" BIGINT NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "revision_blocks_pkey" PRIMARY KEY ("collection","block")
);

INSERT INTO "revision_blocks" ("collection", "block", "count")
SELECT "collection", "id" / 4096, count(*) FROM "revisions" GROUP BY 1, 2;
