import { z } from 'zod';

// The items service (contract §6). Item data is dynamic per collection (checked against the collection's fields by
// the service: unknown field → INVALID_PAYLOAD, wrong type → FAILED_VALIDATION): here it is any JSON object.

/** The field types a collection may declare. */
export const FIELD_TYPES = ['integer', 'bigInteger', 'float', 'decimal', 'string', 'text', 'boolean', 'uuid', 'json', 'date', 'dateTime', 'timestamp'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Identifiers of collections and fields: lower snake case. */
export const IDENTIFIER = /^[a-z][a-z0-9_]*$/;
export const MAX_IDENTIFIER_LENGTH = 63;

/** A collection or field name: `[a-z][a-z0-9_]*`, at most 63 characters, not starting with `vellum_`. */
const identifier = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .regex(IDENTIFIER, { error: (iss) => `${what} "${String(iss.input)}" must match [a-z][a-z0-9_]*` })
    .max(MAX_IDENTIFIER_LENGTH, {
      error: (iss) => `${what} "${String(iss.input)}" is longer than ${MAX_IDENTIFIER_LENGTH} characters`,
    })
    .regex(/^(?!vellum_)/, { error: (iss) => `${what} "${String(iss.input)}" must not start with vellum_` });

const flag = (name: string) => z.boolean({ error: `field {field}: schema.${name} must be a boolean` }).nullish();
const size = (name: string, min: number) =>
  z
    .number({ error: `field {field}: schema.${name} must be a positive integer` })
    .int({ error: `field {field}: schema.${name} must be a positive integer` })
    .min(min, { error: `field {field}: schema.${name} must be a positive integer` })
    .max(10485760, { error: `field {field}: schema.${name} must be a positive integer` })
    .nullish();

/** A field's `schema` (Directus shape): the keys the service acts on; any other key is accepted and kept. */
export const fieldSchemaSchema = z.looseObject(
  {
    is_primary_key: flag('is_primary_key'),
    has_auto_increment: flag('has_auto_increment'),
    is_nullable: flag('is_nullable'),
    is_unique: flag('is_unique'),
    is_indexed: flag('is_indexed'),
    max_length: size('max_length', 1),
    numeric_precision: size('numeric_precision', 1),
    numeric_scale: size('numeric_scale', 0),
    default_value: z.unknown().optional(),
  },
  { error: 'field {field}: "schema" must be an object' },
);

/** A field of `POST /collections`. */
export const fieldRequestSchema = z.looseObject(
  {
    field: identifier('field'),
    type: z.enum(FIELD_TYPES, { error: `field {field}: type must be one of ${FIELD_TYPES.join(', ')}` }),
    schema: fieldSchemaSchema.nullish(),
    meta: z.looseObject({}, { error: 'field {field}: "meta" must be an object' }).nullish(),
  },
  { error: 'every field must be an object' },
);

/** `POST /collections` (Directus shape): `schema`/`meta` keys beyond these are accepted and kept. */
export const collectionRequestSchema = z.looseObject(
  {
    collection: identifier('collection'),
    meta: z.looseObject({}, { error: '"meta" must be an object' }).nullish(),
    schema: z.looseObject({}, { error: '"schema" must be an object' }).nullish(),
    fields: z.array(fieldRequestSchema, { error: '"fields" must be an array' }).nullish(),
  },
  { error: 'The body must be an object' },
);
export type CollectionRequest = z.output<typeof collectionRequestSchema>;
export type FieldRequest = z.output<typeof fieldRequestSchema>;

/** One item: its fields and values. */
export const itemSchema = z.record(z.string(), z.unknown(), { error: 'An item must be an object' });

/** `POST /items/:collection`: one item or an array of items. */
export const itemsCreateSchema = z.union([itemSchema, z.array(itemSchema)], {
  error: 'The body must be an item or an array of items',
});

/** `PATCH /items/:collection/:id`: the changed fields. */
export const itemUpdateSchema = z.record(z.string(), z.unknown(), { error: '"data" must be an object' });

const BULK = 'The body must be {"keys": [...], "data": {...}} or an array of items with their primary key';

/** `PATCH /items/:collection`: `{keys, data}` (the same change to several items) or items that carry their primary key. */
export const itemsUpdateSchema = z.union(
  [
    z.object({ keys: z.array(z.unknown(), { error: BULK }).describe('primary keys of the items to change'), data: itemUpdateSchema }),
    z.array(itemUpdateSchema),
  ],
  { error: BULK },
);
export type ItemsUpdateRequest = z.output<typeof itemsUpdateSchema>;

/** `POST /fields/:collection`: one field, as in `POST /collections` (Directus shape). */
export const fieldCreateSchema = fieldRequestSchema;

/** `PATCH /fields/:collection/:field` (Directus shape): `schema` and `meta` keys beyond these are accepted and kept. */
export const fieldUpdateSchema = z.looseObject(
  {
    field: identifier('field').optional(),
    type: z.enum(FIELD_TYPES, { error: `type must be one of ${FIELD_TYPES.join(', ')}` }).optional(),
    schema: fieldSchemaSchema.nullish(),
    meta: z.looseObject({}, { error: '"meta" must be an object' }).nullish(),
  },
  { error: 'The body must be an object' },
);
export type FieldUpdateRequest = z.output<typeof fieldUpdateSchema>;

const fieldName = (what: string) => z.string({ error: `meta.${what} must be a field name` }).nullish();

/** `PATCH /collections/:name` (Directus shape): the collection's `meta`, merged into what is stored. */
export const collectionUpdateSchema = z.looseObject(
  {
    meta: z
      .looseObject(
        {
          note: z.string({ error: 'meta.note must be a string' }).nullish(),
          icon: z.string({ error: 'meta.icon must be a string' }).nullish(),
          sort_field: fieldName('sort_field'),
          archive_field: fieldName('archive_field'),
          display_template: z.string({ error: 'meta.display_template must be a string' }).nullish(),
          versioning: z.boolean({ error: 'meta.versioning must be a boolean' }).nullish(),
        },
        { error: '"meta" must be an object' },
      )
      .nullish(),
    schema: z.looseObject({}, { error: '"schema" must be an object' }).nullish(),
  },
  { error: 'The body must be an object' },
);
export type CollectionUpdateRequest = z.output<typeof collectionUpdateSchema>;
