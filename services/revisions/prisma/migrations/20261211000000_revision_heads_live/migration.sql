-- Issue 36: a save to a content version (`version` set) is a draft, never a state of the item, so it is not the
-- item's head. revision_heads names each item's newest live revision: what retention keeps when it prunes a month
-- whole and what a compare with the live item reads. Before this, a save newer than the item's last live write
-- took the head, and retention could prune that live write (then `?at=` answered 410 for the item's present).
CREATE OR REPLACE FUNCTION vellum_revision_heads() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO revision_heads (collection, item, id)
  SELECT collection, item, max(id) FROM vellum_new_revisions WHERE version IS NULL GROUP BY collection, item
  ON CONFLICT (collection, item) DO UPDATE SET id = excluded.id WHERE revision_heads.id < excluded.id;
  RETURN NULL;
END
$$;

-- the heads that name a save move back to the item's newest live revision (an item with saves only has no head)
LOCK TABLE revision_heads IN EXCLUSIVE MODE;
WITH moved AS (
  SELECT h.collection, h.item,
         (SELECT max(r.id) FROM revisions r WHERE r.collection = h.collection AND r.item = h.item AND r.version IS NULL) AS id
    FROM revision_heads h JOIN revisions s ON s.id = h.id
   WHERE s.version IS NOT NULL
),
dropped AS (
  DELETE FROM revision_heads h USING moved m WHERE h.collection = m.collection AND h.item = m.item AND m.id IS NULL RETURNING 1
)
UPDATE revision_heads h SET id = m.id FROM moved m WHERE h.collection = m.collection AND h.item = m.item AND m.id IS NOT NULL;
