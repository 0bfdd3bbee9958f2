-- The admin app's user list (GET /users: search + sort + limit + page over 100,000s of users, issue 23).
-- `search` is a case-insensitive substring (ILIKE '%term%') over first_name, last_name, email, title and description:
-- trigram GIN indexes answer it with a bitmap OR (terms of 3+ characters); pg_trgm is a trusted extension (PG 13+),
-- so the database owner may create it. The default order (e-mail) walks a btree and stops after the page.
-- Deliberately no btree on the names: with one, PostgreSQL walks it for `search=smith&sort=last_name` (it cannot know
-- that the Smiths sit at the far end) and filters ~100,000 rows (300+ ms); without, the trigram bitmap finds the
-- matches and a top-N sort orders them (~10 ms). No index on last_access: a login writes it, and an index there
-- would make every login's update a non-HOT one. `fastupdate = off`: users are written seldom, and without a pending
-- list a bulk import is searchable at full speed at once (not only after autovacuum merges it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "users_first_name_trgm_idx" ON "users" USING gin ("first_name" gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX "users_last_name_trgm_idx" ON "users" USING gin ("last_name" gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX "users_title_trgm_idx" ON "users" USING gin ("title" gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX "users_description_trgm_idx" ON "users" USING gin ("description" gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX "users_email_idx" ON "users"("email");
