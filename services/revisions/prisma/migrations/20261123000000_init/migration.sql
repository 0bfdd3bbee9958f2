-- CreateTable
CREATE TABLE "activity" (
    "id" BIGSERIAL NOT NULL,
    "action" TEXT NOT NULL,
    "user" TEXT,
    "timestamp" TIMESTAMPTZ(6) NOT NULL,
    "ip" TEXT,
    "user_agent" TEXT,
    "collection" TEXT NOT NULL,
    "item" TEXT,
    "origin" TEXT,
    "event_id" TEXT NOT NULL,

    CONSTRAINT "activity_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "revisions" (
    "id" BIGSERIAL NOT NULL,
    "activity" BIGINT NOT NULL,
    "collection" TEXT NOT NULL,
    "item" TEXT NOT NULL,
    "data" JSONB,
    "delta" JSONB,
    "parent" BIGINT,
    "parent_event" TEXT,
    "version" TEXT,
    "event_id" TEXT NOT NULL,
    "timestamp" TIMESTAMPTZ(6) NOT NULL,
    "delta_computed" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "revisions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "record_counts" (
    "entity" TEXT NOT NULL,
    "collection" TEXT NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "record_counts_pkey" PRIMARY KEY ("entity","collection")
);

-- CreateIndex
CREATE UNIQUE INDEX "activity_event_id_key" ON "activity"("event_id");
CREATE INDEX "activity_collection_id_idx" ON "activity"("collection", "id");
CREATE UNIQUE INDEX "revisions_event_id_key" ON "revisions"("event_id");
CREATE INDEX "revisions_collection_id_idx" ON "revisions"("collection", "id");
CREATE INDEX "revisions_collection_item_timestamp_idx" ON "revisions"("collection", "item", "timestamp");
CREATE INDEX "revisions_activity_idx" ON "revisions"("activity");
CREATE INDEX "revisions_parent_idx" ON "revisions"("parent");
CREATE INDEX "revisions_parent_event_idx" ON "revisions"("parent_event");

-- AddForeignKey
ALTER TABLE "revisions" ADD CONSTRAINT "revisions_activity_fkey" FOREIGN KEY ("activity") REFERENCES "activity"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "revisions" ADD CONSTRAINT "revisions_parent_fkey" FOREIGN KEY ("parent") REFERENCES "revisions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Not expressible in Prisma: `data`/`delta` reduced to the keys a role may read. `allowed` is the JSON string "*"
-- (all), an array of field names, or NULL (nothing: the whole value becomes NULL).
CREATE FUNCTION "vellum_pick"(obj JSONB, allowed JSONB) RETURNS JSONB
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN obj IS NULL OR allowed IS NULL THEN NULL
    WHEN jsonb_typeof(allowed) = 'string' THEN obj
    WHEN jsonb_typeof(obj) <> 'object' THEN obj
    ELSE COALESCE((SELECT jsonb_object_agg(e.key, e.value) FROM jsonb_each(obj) AS e WHERE allowed ? e.key), '{}'::jsonb)
  END
$$;

-- The changed keys of `next` against `prev` (all of `next` when there is no previous state; NULL for a delete).
CREATE FUNCTION "vellum_delta"(prev JSONB, next JSONB) RETURNS JSONB
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN next IS NULL THEN NULL
    WHEN prev IS NULL OR jsonb_typeof(prev) <> 'object' OR jsonb_typeof(next) <> 'object' THEN next
    ELSE COALESCE((SELECT jsonb_object_agg(e.key, e.value) FROM jsonb_each(next) AS e
                    WHERE NOT (prev ? e.key) OR prev -> e.key <> e.value), '{}'::jsonb)
  END
$$;
