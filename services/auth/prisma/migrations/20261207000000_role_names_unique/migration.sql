-- Role names are unique, letter case aside, in the database itself: two concurrent creates of "Editors" cannot both
-- pass the use case's check. Names an install already holds twice keep the first (by id) and number the others.
UPDATE "roles" AS r SET "name" = r."name" || ' (' || d.n || ')'
FROM (SELECT "id", row_number() OVER (PARTITION BY lower("name") ORDER BY "id") AS n FROM "roles") AS d
WHERE d."id" = r."id" AND d.n > 1;
CREATE UNIQUE INDEX "roles_name_lower_key" ON "roles" (lower("name"));
