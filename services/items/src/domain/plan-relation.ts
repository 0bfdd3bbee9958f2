import type { RelationCreateRequest, RelationUpdateRequest } from '@vellum/contracts';
import { errors } from '@vellum/errors';
import { fieldOf, primaryKeyField, type CollectionDef, type FieldDef } from './collection';
import { aliasFields, type RelationDef, type RelationMeta } from './relation';

/** One change to the relations, with the collections it touches as they were read under their catalogue locks. */
export type RelationChange =
  | { kind: 'create'; relation: RelationDef; one: CollectionDef | undefined }
  | { kind: 'update'; before: RelationDef; relation: RelationDef; one: CollectionDef | undefined }
  | { kind: 'delete'; relation: RelationDef };

/** Which field types can hold a key of which type (the foreign key's column must compare with the key's). */
const HOLDS: Record<string, string[]> = {
  integer: ['integer', 'bigInteger'],
  bigInteger: ['bigInteger'],
  uuid: ['uuid'],
  string: ['string', 'text'],
  text: ['string', 'text'],
};

const fail = (reason: string): never => {
  throw errors.invalidPayload(reason);
};

function column(def: CollectionDef, name: string, what: string): FieldDef {
  return fieldOf(def, name) ?? fail(`${what}: field "${name}" does not exist in "${def.collection}"`);
}

/** The meta's field names exist where they must, the alias does not clash, a junction is one. */
function checkMeta(many: CollectionDef, field: FieldDef, one: CollectionDef | undefined, meta: RelationMeta, self?: RelationDef) {
  if (typeof meta.one_field === 'string') {
    if (!one) fail('meta.one_field: a many-to-any relation has no one side to hold an alias field');
    else {
      if (!/^[a-z][a-z0-9_]*$/.test(meta.one_field)) fail(`meta.one_field "${meta.one_field}" must match [a-z][a-z0-9_]*`);
      if (fieldOf(one, meta.one_field)) fail(`meta.one_field: "${one.collection}" already has a field "${meta.one_field}"`);
      // `self` by its ends: the one side's definition holds its own copy of the relation
      const isSelf = (r: RelationDef) => r.collection === self?.collection && r.field === self.field;
      const taken = one.relations.some((r) => !isSelf(r) && r.related_collection === one.collection && r.meta.one_field === meta.one_field);
      if (taken || (self === undefined && aliasFields(one).includes(meta.one_field)))
        fail(`meta.one_field: "${one.collection}.${meta.one_field}" is already an alias field`);
    }
  }
  if (typeof meta.junction_field === 'string') {
    const j = fieldOf(many, meta.junction_field);
    if (!j || j.field === field.field || j.field === many.primaryKey) {
      fail(`meta.junction_field: "${many.collection}" is not a junction: it has no other key field "${meta.junction_field}"`);
    }
  }
  if (typeof meta.sort_field === 'string') column(many, meta.sort_field, 'meta.sort_field');
}

/** `POST /relations` → the relation to add, checked against the collections read under their locks. */
export function planCreateRelation(
  body: RelationCreateRequest,
  many: CollectionDef | undefined,
  one: CollectionDef | undefined,
  allowed: (name: string) => boolean,
): RelationChange {
  if (!many) return fail(`collection "${body.collection}" does not exist`);
  const field = column(many, body.field, 'field');
  if (many.relations.some((r) => r.collection === many.collection && r.field === body.field)) fail(`"${many.collection}.${body.field}" already has a relation`);
  const related = body.related_collection ?? null;
  const meta: RelationMeta = { one_deselect_action: 'nullify', ...(body.meta ?? {}) } as RelationMeta;
  if (meta.one_deselect_action == null) meta.one_deselect_action = 'nullify';
  if (related !== null) {
    if (!one) return fail(`related_collection "${related}" does not exist`);
    const key = primaryKeyField(one);
    if (!(HOLDS[key.type] ?? []).includes(field.type)) {
      fail(`field "${many.collection}.${field.field}" is ${field.type}: it cannot hold a key of "${one.collection}" (${key.type})`);
    }
  } else {
    const by = meta.one_collection_field;
    if (typeof by !== 'string') fail('a relation without related_collection is many-to-any: meta.one_collection_field is required');
    const byField = column(many, by as string, 'meta.one_collection_field');
    if (byField.type !== 'string' && byField.type !== 'text') fail(`meta.one_collection_field "${by}" must be a string field`);
    if (field.type !== 'string' && field.type !== 'text')
      fail(`field "${field.field}" of a many-to-any relation must be a string field (it holds keys of any collection)`);
    for (const c of meta.one_allowed_collections ?? []) if (!allowed(c)) fail(`meta.one_allowed_collections: collection "${c}" does not exist`);
  }
  checkMeta(many, field, one, meta);
  const onDelete = body.schema?.on_delete ?? 'SET NULL';
  if (related === null && body.schema?.on_delete) fail('schema.on_delete: a many-to-any relation has no foreign key');
  if (onDelete === 'SET NULL' && field.schema.is_nullable === false) fail(`schema.on_delete SET NULL: field "${field.field}" is not nullable`);
  const relation: RelationDef = {
    collection: many.collection,
    field: field.field,
    related_collection: related,
    meta,
    schema: related === null ? null : { ...(body.schema ?? {}), on_delete: onDelete },
  };
  return { kind: 'create', relation, one };
}

/** `PATCH /relations/:collection/:field` → the relation with its meta and schema merged into the stored ones. */
export function planUpdateRelation(body: RelationUpdateRequest, many: CollectionDef, before: RelationDef, one: CollectionDef | undefined): RelationChange {
  // the whole relation may be sent back (as Directus's app does): its ends as they are, or 400
  for (const end of ['collection', 'field', 'related_collection'] as const) {
    const sent = (body as Record<string, unknown>)[end];
    if (sent !== undefined && sent !== before[end]) fail(`${end}: a relation's ends cannot change (delete it and add another)`);
  }
  const meta = { ...before.meta, ...(body.meta ?? {}) } as RelationMeta;
  const field = column(many, before.field, 'field');
  checkMeta(many, field, one, meta, before);
  if (body.schema?.on_delete && before.related_collection === null) fail('schema.on_delete: a many-to-any relation has no foreign key');
  const schema = before.schema === null ? null : { ...before.schema, ...(body.schema ?? {}), on_delete: body.schema?.on_delete ?? before.schema.on_delete };
  if (schema?.on_delete === 'SET NULL' && field.schema.is_nullable === false) fail(`schema.on_delete SET NULL: field "${field.field}" is not nullable`);
  return { kind: 'update', before, relation: { ...before, meta, schema }, one };
}
