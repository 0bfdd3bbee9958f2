-- Issue 41: every recorded revision wrote an entry in both indexes, though only the revisions of a nested write
-- have a `parent` or a `parent_event` (most have neither: two of the thirteen index entries a revision and its
-- activity row write, for nothing). Every reader of these indexes looks a value up (`parent = …`, `parent IN …`,
-- a range of ids, `parent_event = …` or `= ANY (…)`), which implies the value is not null, so each index keeps
-- the rows that have one. A filter `parent IS NULL` reads most of the table and never used the index.
DROP INDEX "revisions_parent_idx";
CREATE INDEX "revisions_parent_idx" ON "revisions" ("parent") WHERE "parent" IS NOT NULL;
DROP INDEX "revisions_parent_event_idx";
CREATE INDEX "revisions_parent_event_idx" ON "revisions" ("parent_event") WHERE "parent_event" IS NOT NULL;
