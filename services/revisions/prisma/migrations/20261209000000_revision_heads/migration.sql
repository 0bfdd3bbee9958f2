-- Issue 18.4: each item's newest revision id, kept by the database itself, so that retention finds the rows a month
-- must keep (every item's latest revision) by reading those rows only, not one index entry per item of the month.
--
-- A statement trigger on `revisions` keeps it: every INSERT, by whatever writer (the service's writer, an archive
-- import, a bulk load, a replica still on the previous version during an upgrade), moves each item's head to its
-- highest id. Nothing deletes an item's newest revision (retention keeps it), so a head always names a stored row.
-- The table is created, the trigger set and the existing heads computed in this migration's one transaction: the
-- trigger's lock holds writers back until the heads are complete (one pass over (collection, item, id)).
CREATE TABLE "revision_heads" (
    "collection" TEXT NOT NULL,
    "item" TEXT NOT NULL,
    "id" BIGINT NOT NULL,

    CONSTRAINT "revision_heads_pkey" PRIMARY KEY ("collection", "item")
);

CREATE FUNCTION vellum_revision_heads() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO revision_heads (collection, item, id)
  SELECT collection, item, max(id) FROM vellum_new_revisions GROUP BY collection, item
  ON CONFLICT (collection, item) DO UPDATE SET id = excluded.id WHERE revision_heads.id < excluded.id;
  RETURN NULL;
END
$$;

CREATE TRIGGER "revisions_heads" AFTER INSERT ON "revisions"
  REFERENCING NEW TABLE AS vellum_new_revisions FOR EACH STATEMENT EXECUTE FUNCTION vellum_revision_heads();

INSERT INTO "revision_heads" ("collection", "item", "id")
SELECT "collection", "item", max("id") FROM "revisions" GROUP BY "collection", "item";

CREATE INDEX "revision_heads_id_idx" ON "revision_heads"("id");
