import type { RelationCreateRequest, RelationUpdateRequest } from '@vellum/contracts';
import { errors } from '@vellum/errors';
import type { Accountability } from '@vellum/http';
import type { AccessRules } from './access-rules';
import type { RelationsRepository } from '../data/relations.repository';
import { itemChangeMessage, type ChangeContext } from './item-change';
import { planCreateRelation, planUpdateRelation, type RelationChange } from './plan-relation';
import type { RelationDef } from './relation';

/** A relation as the API shows it (Directus shape: both ends, `meta` with the ends repeated, `schema` with the foreign key). */
export function presentRelation(r: RelationDef) {
  return {
    collection: r.collection,
    field: r.field,
    related_collection: r.related_collection,
    meta: {
      many_collection: r.collection,
      many_field: r.field,
      one_collection: r.related_collection,
      one_field: null,
      one_collection_field: null,
      one_allowed_collections: null,
      junction_field: null,
      sort_field: null,
      one_deselect_action: 'nullify',
      ...r.meta,
    },
    schema:
      r.schema === null
        ? null
        : {
            table: r.collection,
            column: r.field,
            foreign_key_table: r.related_collection,
            constraint_name: `${r.collection}_${r.field}_fkey`.slice(0, 63),
            on_update: 'NO ACTION',
            ...r.schema,
          },
  };
}

/** A relation's item in the activity and revisions: `vellum_relations`, item `<collection>.<field>`. */
function record(ctx: ChangeContext, change: RelationChange) {
  const r = change.relation;
  const item = `${r.collection}.${r.field}`;
  if (change.kind === 'delete') return [itemChangeMessage(ctx, 'vellum_relations', 'delete', item, null, null)];
  const data = presentRelation(r);
  if (change.kind === 'create') return [itemChangeMessage(ctx, 'vellum_relations', 'create', item, data, data)];
  return [itemChangeMessage(ctx, 'vellum_relations', 'update', item, data, { meta: r.meta, schema: r.schema })];
}

/** `/relations` (admin only: the routes say so). Each change is one transaction with its DDL and its activity. */
export class RelationsUseCase {
  constructor(
    private readonly repo: RelationsRepository,
    private readonly rules: AccessRules,
  ) {}

  /** As Directus: every caller reads the relations between the collections it may use (administrators: all). */
  private visible(a: Accountability | undefined) {
    const v = this.rules.visibleCollections(a);
    return (r: RelationDef) => v === '*' || (v.has(r.collection) && (r.related_collection === null || v.has(r.related_collection)));
  }

  async list(a: Accountability | undefined, collection?: string) {
    return (await this.repo.list(collection)).filter(this.visible(a)).map(presentRelation);
  }

  async get(a: Accountability | undefined, collection: string, field: string) {
    const [r] = await this.repo.list(collection, field);
    if (!r || !this.visible(a)(r)) throw errors.forbidden();
    return presentRelation(r);
  }

  async create(ctx: ChangeContext, body: RelationCreateRequest) {
    const related = body.related_collection ?? null;
    const names = [body.collection, ...(related ? [related] : []), ...(body.meta?.one_allowed_collections ?? [])];
    const change = await this.repo.apply(
      names,
      (defs) => planCreateRelation(body, defs.get(body.collection), related ? defs.get(related) : undefined, (n) => defs.has(n)),
      (c) => record(ctx, c),
    );
    return presentRelation(change.relation);
  }

  private async existing(collection: string, field: string): Promise<RelationDef> {
    const [r] = await this.repo.list(collection, field);
    if (!r) throw errors.forbidden();
    return r;
  }

  async update(ctx: ChangeContext, collection: string, field: string, body: RelationUpdateRequest) {
    const found = await this.existing(collection, field);
    const change = await this.repo.apply(
      [collection, ...(found.related_collection ? [found.related_collection] : [])],
      (defs) => {
        const many = defs.get(collection);
        const before = many?.relations.find((r) => r.collection === collection && r.field === field);
        if (!many || !before) throw errors.forbidden();
        return planUpdateRelation(body, many, before, before.related_collection ? defs.get(before.related_collection) : undefined);
      },
      (c) => record(ctx, c),
    );
    return presentRelation(change.relation);
  }

  async delete(ctx: ChangeContext, collection: string, field: string) {
    await this.existing(collection, field);
    await this.repo.apply(
      [collection],
      (defs) => {
        const relation = defs.get(collection)?.relations.find((r) => r.collection === collection && r.field === field);
        if (!relation) throw errors.forbidden();
        return { kind: 'delete', relation };
      },
      (c) => record(ctx, c),
    );
  }
}
