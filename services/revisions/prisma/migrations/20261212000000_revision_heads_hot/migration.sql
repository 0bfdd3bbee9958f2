-- Issue 41: each recorded revision moves its item's head (revision_heads.id). With an index on `id` that update
-- was never HOT: a new row version and an entry in each of the table's four indexes (one of them evaluates a
-- regular expression) per revision. Without it, and with room left on each page, the update stays on its page
-- and touches no index. The one reader of heads by id, retention pruning a month, reads the table once instead.
DROP INDEX IF EXISTS "revision_heads_id_idx";
ALTER TABLE "revision_heads" SET (fillfactor = 70);
