-- Every successful login updates its user's row (last_access, the failure counters and the lock). With room on the
-- row's page the new version stays there and no index is written (a HOT update); without, PostgreSQL writes an entry
-- into every index of users — nine, five of them trigram GINs (users_list_indexes). Pages filled to 90% keep that
-- room. Pages written from now on get it (new installs: all of them); an existing table's full pages get it when
-- rewritten (VACUUM FULL, pg_repack: an operator's choice, not a migration's — it locks the table).
ALTER TABLE "users" SET (fillfactor = 90);
