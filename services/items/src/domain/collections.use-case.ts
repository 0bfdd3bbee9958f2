import type { CollectionRequest } from '@vellum/contracts';
import { errors } from '@vellum/errors';
import type { Accountability } from '@vellum/http';
import type { CollectionsRepository } from '../data/collections.repository';
import { sqlType } from '../data/content-schema';
import type { AccessRules } from './access-rules';
import { permits } from './access-rules';
import { primaryKeyField, type CollectionDef, type FieldDef } from './collection';
import { parseCollection } from './parse-collection';

/** A field in the Directus response shape. */
function presentField(def: CollectionDef, f: FieldDef) {
  const isPk = f.field === def.primaryKey;
  return {
    collection: def.collection,
    field: f.field,
    type: f.type,
    schema: {
      ...f.schema,
      name: f.field,
      table: def.collection,
      data_type: sqlType(f),
      is_primary_key: isPk,
      has_auto_increment: isPk ? Boolean(f.schema.has_auto_increment) : false,
      is_nullable: isPk ? false : f.schema.is_nullable !== false,
      is_unique: isPk || f.schema.is_unique === true,
      default_value: f.schema.default_value ?? null,
    },
    meta: f.meta,
  };
}

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
