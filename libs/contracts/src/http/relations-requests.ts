import { z } from 'zod';

// `/relations` (Directus shape). The items service checks what the shapes cannot: that the collections and fields
// exist, that the key types fit, that names do not clash (400 INVALID_PAYLOAD naming the problem).

/** What PostgreSQL does to the many side's rows when the related row is deleted. */
export const ON_DELETE_ACTIONS = ['SET NULL', 'CASCADE', 'NO ACTION', 'RESTRICT', 'SET DEFAULT'] as const;
/** What a nested write does to an o2m child left out of the list: unlink it (key set to null) or delete it. */
export const DESELECT_ACTIONS = ['nullify', 'delete'] as const;

const name = (what: string) => z.string({ error: `${what} must be a field or collection name` }).max(63, { error: `${what} is too long` });

const relationMetaSchema = z.looseObject(
  {
    one_field: name('meta.one_field').nullish(),
    junction_field: name('meta.junction_field').nullish(),
    sort_field: name('meta.sort_field').nullish(),
    one_collection_field: name('meta.one_collection_field').nullish(),
    one_allowed_collections: z.array(name('meta.one_allowed_collections[]'), { error: 'meta.one_allowed_collections must be an array' }).nullish(),
    one_deselect_action: z.enum(DESELECT_ACTIONS, { error: `meta.one_deselect_action must be one of ${DESELECT_ACTIONS.join(', ')}` }).nullish(),
  },
  { error: '"meta" must be an object' },
);
const relationSchemaSchema = z.looseObject(
  { on_delete: z.enum(ON_DELETE_ACTIONS, { error: `schema.on_delete must be one of ${ON_DELETE_ACTIONS.join(', ')}` }).nullish() },
  { error: '"schema" must be an object' },
);

/** `POST /relations`: the many side (`collection`.`field`, the column holding the key) and the one side (`related_collection`; null: many-to-any). */
export const relationCreateSchema = z.looseObject(
  {
    collection: name('collection'),
    field: name('field'),
    related_collection: name('related_collection').nullable().optional(),
    meta: relationMetaSchema.nullish(),
    schema: relationSchemaSchema.nullish(),
  },
  { error: 'The body must be an object' },
);
export type RelationCreateRequest = z.output<typeof relationCreateSchema>;

/** `PATCH /relations/:collection/:field`: `meta` and `schema.on_delete` (the two ends stay). */
export const relationUpdateSchema = z.looseObject(
  { meta: relationMetaSchema.nullish(), schema: relationSchemaSchema.nullish() },
  { error: 'The body must be an object' },
);
export type RelationUpdateRequest = z.output<typeof relationUpdateSchema>;
