import { itemChangeMessage, type ChangeContext } from './item-change';
import type { CollectionRequest } from '@vellum/contracts';
import { junctionPartner, manyToOne } from './relation';
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
  const m2o = manyToOne(def, f.field);
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
      ...(m2o ? { foreign_key_table: m2o.related_collection } : {}),
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

/**
 * A collection's alias fields (Directus `type: "alias"`, no column): one per relation whose `meta.one_field` names
 * it on this collection — `special` `o2m`, or `m2m` / `m2a` when the relation is a junction's.
 */
export function presentAliasFields(def: CollectionDef) {
  return def.relations
    .filter((r) => r.related_collection === def.collection && typeof r.meta.one_field === 'string')
    .map((r, i) => {
      const partner = junctionPartner(r, def.relations);
      const special = !r.meta.junction_field ? 'o2m' : partner?.related_collection === null ? 'm2a' : 'm2m';
      return {
        collection: def.collection,
        field: r.meta.one_field as string,
        type: 'alias',
        schema: null,
        meta: { ...FIELD_META_DEFAULTS, special: [special], sort: def.fields.length + i + 1, collection: def.collection, field: r.meta.one_field as string },
      };
    });
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

  /** The table, its catalogue rows and a `vellum_collections` revision (the collection with its fields) in one transaction. */
  async create(ctx: ChangeContext, body: CollectionRequest) {
    const def = parseCollection(body);
    const data = presentCollection(def);
    return presentCollection(await this.repo.create(def, [itemChangeMessage(ctx, 'vellum_collections', 'create', def.collection, data, data)]));
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

  /** The table, its catalogue rows (fields, relations) and a `vellum_collections` delete revision in one transaction. */
  async delete(ctx: ChangeContext, name: string) {
    // the relations it is a side of go with it: each gets its delete revision too
    const relations = (await this.repo.get(name))?.relations ?? [];
    const record = [
      itemChangeMessage(ctx, 'vellum_collections', 'delete', name, null, null),
      ...relations.map((r) => itemChangeMessage(ctx, 'vellum_relations', 'delete', `${r.collection}.${r.field}`, null, null)),
    ];
    if (!(await this.repo.delete(name, record))) throw errors.forbidden();
  }
}
