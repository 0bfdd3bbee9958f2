-- Issue 37: a list as it was, sorted by the key, pages in SQL (src/data/as-of-page.repository.ts): the heads are read
-- in key order — numeric for integer keys, byte order ("C") for the others — so these indexes give that order and
-- the page reads as many heads as it shows (not every item of the collection, then a sort). The expressions are
-- the statement's, character for character (the planner matches them).
CREATE INDEX "revision_heads_numeric_key_idx" ON "revision_heads" ("collection", (CASE WHEN item ~ '^-?[0-9]{1,15}$' THEN item::numeric END));
CREATE INDEX "revision_heads_text_key_idx" ON "revision_heads" ("collection", (item COLLATE "C"));
