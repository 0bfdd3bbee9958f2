import { z } from 'zod';

// `/versions` (content versions, Directus 11 shape). The items service checks what the shapes cannot: that the
// collection has `meta.versioning`, that the item exists and the caller may update it, that `key` is free.

const key = z
  .string({ error: 'key must be a string' })
  .min(1, { error: 'key must not be empty' })
  .max(64, { error: 'key is too long' })
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'key may hold letters, digits, "_" and "-" only' });
const name = z.string({ error: 'name must be a string' }).max(255, { error: 'name is too long' }).nullable();

const versionCreateOne = z.looseObject(
  {
    key,
    name: name.optional(),
    collection: z.string({ error: 'collection must be a string' }).min(1).max(64),
    item: z.union([z.string(), z.number()], { error: 'item must be a primary key' }).transform(String),
  },
  { error: 'The body must be an object' },
);

/** `POST /versions`: one version or an array of them. */
export const versionCreateSchema = z.union([versionCreateOne, z.array(versionCreateOne)], { error: 'The body must be a version or an array of versions' });
export type VersionCreateRequest = z.output<typeof versionCreateOne>;

/**
 * `PATCH /versions/:id`: `key` and `name` change (the collection, item and saves stay); `publish_at` (an ISO time
 * with its offset, or null to cancel) schedules a promote, `publish_force` promotes it even if main moved since.
 */
export const versionUpdateSchema = z.strictObject({
  key: key.optional(),
  name: name.optional(),
  publish_at: z.iso.datetime({ offset: true, error: 'publish_at must be an ISO 8601 time with its offset (or null)' }).nullable().optional(),
  publish_force: z.boolean({ error: 'publish_force must be a boolean' }).optional(),
});
export type VersionUpdateRequest = z.output<typeof versionUpdateSchema>;

/** `POST /versions/:id/save`: a partial item (nested relational data included), deep-merged into the version's delta. */
export const versionSaveSchema = z.record(z.string(), z.unknown(), { error: 'The body must be an object (a partial item)' });

/** `POST /versions/:id/promote`: the hash `compare` answered (or `If-Match`), and optionally the fields to apply. */
export const versionPromoteSchema = z.looseObject(
  {
    mainHash: z.string({ error: 'mainHash must be a string' }).optional(),
    fields: z.array(z.string(), { error: 'fields must be an array of field names' }).optional(),
  },
  { error: 'The body must be an object' },
);
export type VersionPromoteRequest = z.output<typeof versionPromoteSchema>;
