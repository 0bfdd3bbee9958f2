-- The item's version carried by its item-change event (issue 23.2): 1, 2, 3, … in the order the item's writes
-- committed. One revision per version; an item's revisions are recorded in version order, so for one item `id`
-- order is commit order.
ALTER TABLE "revisions" ADD COLUMN "item_version" BIGINT;
CREATE UNIQUE INDEX "revisions_collection_item_item_version_key" ON "revisions"("collection", "item", "item_version");

-- A change whose predecessor has not been recorded yet is parked here (and acknowledged) until it is; it is then
-- recorded in the same transaction as its predecessor. Parked longer than REVISIONS_ORDER_WAIT: recorded anyway.
CREATE TABLE "pending_item_events" (
    "event_id" TEXT NOT NULL,
    "collection" TEXT NOT NULL,
    "item" TEXT NOT NULL,
    "item_version" BIGINT NOT NULL,
    "payload" JSONB NOT NULL,
    "received_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pending_item_events_pkey" PRIMARY KEY ("event_id")
);
CREATE INDEX "pending_item_events_collection_item_item_version_idx" ON "pending_item_events"("collection", "item", "item_version");
CREATE INDEX "pending_item_events_received_at_idx" ON "pending_item_events"("received_at");
