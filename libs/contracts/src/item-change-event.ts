import { z } from 'zod';

export const ITEM_CHANGE_EVENT_VERSION = 1;

/** The value every secret field carries in an event (password hash, TFA secret, tokens). */
export const REDACTED = '**********';

/**
 * An item changed (contract §5 "Where revisions come from"). Published by any owner of items; the revisions
 * service records activity + revision exactly once per `id`.
 */
export const itemChangeEventSchema = z.object({
  v: z.literal(ITEM_CHANGE_EVENT_VERSION),
  /** Unique event id (uuid); the dedupe key end to end. */
  id: z.string().min(1).max(64),
  collection: z.string().min(1).max(64),
  item: z.string().min(1).max(255),
  /**
   * `revert`: a restore of an earlier revision (an update, or the re-creation of a deleted item); `promote`: a
   * content version's delta written to the item (an update; its revision has no `version`).
   */
  action: z.enum(['create', 'update', 'delete', 'revert', 'promote']),
  /** Full item state after the change; null for a delete. */
  data: z.record(z.string(), z.unknown()).nullable(),
  /** Changed fields; computed by the consumer when absent. */
  delta: z.record(z.string(), z.unknown()).nullable().optional(),
  actor: z.object({
    user: z.string().nullable(),
    role: z.string().nullable().optional(),
    ip: z.string().nullable().optional(),
    user_agent: z.string().nullable().optional(),
    origin: z.string().nullable().optional(),
  }),
  /** ISO 8601 UTC time of the change. */
  timestamp: z.string().datetime({ offset: true }),
  /** Content version id (`version` of the revision). */
  version: z.string().nullable().optional(),
  /**
   * The item's version after this change: 1, 2, 3, … in the order the item's writes committed (bumped under the
   * row lock in the write's transaction). The revisions service records an item's revisions in this order and
   * computes deltas against the previous version. Absent from publishers that do not version their items.
   */
  item_version: z.number().int().positive().optional(),
  /** Event id of the parent change for a relational update (→ revision.parent). */
  parent_event: z.string().nullable().optional(),
});

export type ItemChangeEvent = z.infer<typeof itemChangeEventSchema>;
