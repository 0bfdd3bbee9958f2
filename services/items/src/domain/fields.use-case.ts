import type { CollectionUpdateRequest, FieldRequest, FieldUpdateRequest } from '@vellum/contracts';
import { errors } from '@vellum/errors';
import type { CollectionsRepository } from '../data/collections.repository';
import type { FieldsRepository } from '../data/fields.repository';
import { fieldOf, type CollectionDef } from './collection';
import { presentAliasFields, presentCollection, presentField } from './collections.use-case';
import { itemChangeMessage, type ChangeContext } from './item-change';
import { planAddField, planCollectionMeta, planDropField, planUpdateField } from './plan-field-change';
import type { SchemaChange } from './schema-change';
import type { RelationsUseCase } from './relations.use-case';
import { oneToMany } from './relation';

/** A field's item in the activity and revisions: `vellum_fields`, item `<collection>.<field>`. */
const fieldItem = (collection: string, field: string) => `${collection}.${field}`;

/** The activity/revision of a change: the field (or collection) as it is after it, its changed keys as the delta. */
function record(ctx: ChangeContext, change: SchemaChange, after: CollectionDef) {
  switch (change.kind) {
    case 'add': {
      const data = presentField(after, fieldOf(after, change.field.field)!);
      return [itemChangeMessage(ctx, 'vellum_fields', 'create', fieldItem(after.collection, change.field.field), data, data)];
    }
    case 'alter': {
      const data = presentField(after, fieldOf(after, change.after.field)!);
      const delta = { type: change.after.type, schema: change.after.schema, meta: change.after.meta };
      return [itemChangeMessage(ctx, 'vellum_fields', 'update', fieldItem(after.collection, change.after.field), data, delta)];
    }
    case 'drop':
      return [
        itemChangeMessage(ctx, 'vellum_fields', 'delete', fieldItem(after.collection, change.field.field), null, null),
        ...(change.relations ?? []).map((r) => itemChangeMessage(ctx, 'vellum_relations', 'delete', `${r.collection}.${r.field}`, null, null)),
      ];
    case 'collection': {
      const { fields: _fields, ...data } = presentCollection(after);
      return [itemChangeMessage(ctx, 'vellum_collections', 'update', after.collection, data, { meta: change.meta })];
    }
  }
}

/** The schema API of fields (`/fields`) and `PATCH /collections/:name`: admin only (the routes say so). */
export class FieldsUseCase {
  constructor(
    private readonly collections: CollectionsRepository,
    private readonly fields: FieldsRepository,
    /** An alias field is its relation's `meta.one_field`: removing it changes the relation (as Directus does). */
    private readonly relations: Pick<RelationsUseCase, 'update'>,
  ) {}

  async list(collection?: string) {
    const all = (def: CollectionDef) => [...def.fields.map((f) => presentField(def, f)), ...presentAliasFields(def)];
    if (collection === undefined) return (await this.collections.list()).flatMap(all);
    const def = await this.collections.get(collection);
    // As the items API does for an unknown collection.
    if (!def) throw errors.forbidden();
    return all(def);
  }

  async get(collection: string, field: string) {
    const def = await this.collections.get(collection);
    const f = def && fieldOf(def, field);
    const alias = def && presentAliasFields(def).find((a) => a.field === field);
    if (!def || (!f && !alias)) throw errors.forbidden();
    return f ? presentField(def, f) : alias!;
  }

  private async apply(ctx: ChangeContext, collection: string, plan: (def: CollectionDef) => SchemaChange) {
    const after = await this.fields.apply(collection, plan, (change, def) => record(ctx, change, def));
    if (!after) throw errors.invalidPayload(`collection "${collection}" does not exist`);
    return after;
  }

  async create(ctx: ChangeContext, collection: string, body: FieldRequest) {
    const after = await this.apply(ctx, collection, (def) => planAddField(def, body));
    return presentField(after, fieldOf(after, body.field)!);
  }

  async update(ctx: ChangeContext, collection: string, field: string, body: FieldUpdateRequest) {
    const after = await this.apply(ctx, collection, (def) => planUpdateField(def, field, body));
    return presentField(after, fieldOf(after, field)!);
  }

  async delete(ctx: ChangeContext, collection: string, field: string) {
    const def = await this.collections.get(collection);
    const alias = def && !fieldOf(def, field) ? oneToMany(def, field) : undefined;
    if (alias) {
      await this.relations.update(ctx, alias.collection, alias.field, { meta: { one_field: null } });
      return;
    }
    await this.apply(ctx, collection, (def) => planDropField(def, field));
  }

  async updateCollection(ctx: ChangeContext, collection: string, body: CollectionUpdateRequest) {
    return presentCollection(await this.apply(ctx, collection, (def) => planCollectionMeta(def, body)));
  }
}
