-- Items service: the catalogue of collections and fields, the "content" schema that holds one real table per
-- collection (created by the service at run time), and the transactional outbox (@vellum/outbox's DDL verbatim).

CREATE SCHEMA IF NOT EXISTS "content";

CREATE TABLE "collections" (
    "name" TEXT NOT NULL,
    "primary_key" TEXT NOT NULL,
    "meta" JSONB,
    "schema" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "collections_pkey" PRIMARY KEY ("name")
);

CREATE TABLE "fields" (
    "collection" TEXT NOT NULL,
    "field" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "sort" INTEGER NOT NULL,
    "schema" JSONB NOT NULL DEFAULT '{}',
    "meta" JSONB,
    CONSTRAINT "fields_pkey" PRIMARY KEY ("collection", "field")
);

ALTER TABLE "fields" ADD CONSTRAINT "fields_collection_fkey" FOREIGN KEY ("collection") REFERENCES "collections"("name") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "outbox" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "destination" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB,
    "headers" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "outbox_seq_key" ON "outbox"("seq");
CREATE INDEX "outbox_unpublished_idx" ON "outbox"("seq") WHERE "published_at" IS NULL;
CREATE FUNCTION "outbox_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vellum_outbox', '');
  RETURN NULL;
END $$;
CREATE TRIGGER "outbox_notify" AFTER INSERT ON "outbox" FOR EACH STATEMENT EXECUTE FUNCTION "outbox_notify"();
