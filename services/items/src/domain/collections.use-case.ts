import type { CollectionRequest } from '@vellum/contracts';
import { errors } from '@vellum/errors';
import type { Accountability } from '@vellum/http';
import type { CollectionsRepository } from '../data/collections.repository';
import { CONTENT_SCHEMA, sqlType } from '../data/content-schema';
import type { AccessRules } from './access-rules';
import { permits } from './access-rules';
import { primaryKeyField, type CollectionDef, type FieldDef } from './collection';
import { parseCollection } from './parse-collection';

/** A field in the Directus 11 response shape: `schema` and `meta` with every key Directus sends, defaults filled. */
export function presentField(def: CollectionDef, f: FieldDef) {
  const isPk = f.field === def.primaryKey;
  return {
    collection: def.collection,
    field: f.field,
    type: f.type,
    schema: {
      max_length: f.type === 'string' ? (f.schema.max_length === null ? null : (f.schema.max_length ?? 255)) : null,
      numeric_precision: f.type === 'decimal' ? (f.schema.numeric_precision ?? 10) : null,
      numeric_scale: f.type === 'decimal' ? (f.schema.numeric_scale ?? 5) : null,
      is_indexed: false,
      is_generated: false,
      generation_expression: null,
      foreign_key_table: null,
      foreign_key_column: null,
      comment: null,
      ...f.schema,
      name: f.field,
      table: def.collection,
      schema: CONTENT_SCHEMA,
      data_type: sqlType(f),
      is_primary_key: isPk,
      has_auto_increment: isPk ? Boolean(f.schema.has_auto_increment) : false,
      is_nullable: isPk ? false : f.schema.is_nullable !== false,
      is_unique: isPk || f.schema.is_unique === true,
      default_value: f.schema.default_value ?? null,
    },
    meta: {
      ...FIELD_META_DEFAULTS,
      sort: def.fields.indexOf(f) + 1,
      ...(f.meta ?? {}),
      collection: def.collection,
      field: f.field,
    },
  };
}

/** The `meta` keys of a Directus field, as Directus fills them for a field created without them. */
const FIELD_META_DEFAULTS = {
  special: null,
  interface: null,
  options: null,
  display: null,
  display_options: null,
  readonly: false,
  hidden: false,
  width: 'full',
  translations: null,
  note: null,
  conditions: null,
  required: false,
  group: null,
  validation: null,
  validation_message: null,
};

/** A collection in the Directus response shape (`fields` added, so one call describes it all). */
export function presentCollection(def: CollectionDef, readable: '*' | string[] = '*') {
  return {
    collection: def.collection,
    meta: def.meta,
    schema: { ...(def.schema ?? {}), name: def.collection },
    primary_key: primaryKeyField(def).field,
    fields: def.fields.filter((f) => f.field === def.primaryKey || permits(readable, f.field)).map((f) => presentField(def, f)),
  };
}

export class CollectionsUseCase {
  constructor(
    private readonly repo: CollectionsRepository,
    private readonly rules: AccessRules,
  ) {}

  async create(body: CollectionRequest) {
    return presentCollection(await this.repo.create(parseCollection(body)));
  }

  /** Admins see every collection; others the collections their role has any permission on. */
  async list(a: Accountability | undefined) {
    const visible = this.rules.visibleCollections(a);
    const all = await this.repo.list();
    return all.filter((c) => visible === '*' || visible.has(c.collection)).map((c) => presentCollection(c, this.rules.fields(a, c.collection, 'read') ?? []));
  }

  async get(a: Accountability | undefined, name: string) {
    const visible = this.rules.visibleCollections(a);
    if (visible !== '*' && !visible.has(name)) throw errors.forbidden();
    const def = await this.repo.get(name);
    if (!def) throw errors.forbidden();
    return presentCollection(def, this.rules.fields(a, name, 'read') ?? []);
  }

  async delete(name: string) {
    if (!(await this.repo.delete(name))) throw errors.forbidden();
  }
}
