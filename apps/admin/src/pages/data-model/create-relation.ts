import { api, ok } from '../../api/client';
import type { Collection } from '../../data/collections';
import { keyTypeOf } from './field-types';

/** What the add-relation form asks for, per kind. */
export type NewRelation =
  | { kind: 'm2o'; field: string; createField: boolean; related: string }
  | { kind: 'o2m'; alias: string; child: string; key: string; createKey: boolean; deselect: 'nullify' | 'delete' }
  | { kind: 'm2m'; alias: string; related: string; junction: string };

const addField = (collection: string, field: string, type: string) =>
  ok(api.POST('/fields/{collection}', { params: { path: { collection } }, body: { field, type } as never }));
const relate = (body: object) => ok(api.POST('/relations', { body: body as never }));
const dropField = (collection: string, field: string) =>
  ok(api.DELETE('/fields/{collection}/{field}', { params: { path: { collection, field } } })).catch(() => undefined);

/** The junction's two key fields: `<collection>_id` and `<related>_id` (`related_id` when both are the same collection). */
export function junctionKeys(collection: string, related: string): [string, string] {
  return collection === related ? [`${collection}_id`, 'related_id'] : [`${collection}_id`, `${related}_id`];
}

/**
 * Add a relation to `c` through the API, in order: the key field first when it is to be created (with the related
 * key's type), then the relation; a many-to-many creates its junction collection (its key fields typed after both
 * ends) and then both relations. A step that fails undoes the steps before it, so nothing is left half made.
 */
export async function createRelation(c: Collection, r: NewRelation, collections: Collection[]): Promise<string> {
  const named = (name: string) => {
    const x = collections.find((y) => y.collection === name);
    if (!x) throw new Error(`Choose a collection (“${name}” does not exist).`);
    return x;
  };
  if (r.kind === 'm2o') {
    const related = named(r.related);
    if (r.createField) await addField(c.collection, r.field, keyTypeOf(related));
    try {
      await relate({ collection: c.collection, field: r.field, related_collection: related.collection, schema: { on_delete: 'SET NULL' } });
    } catch (err) {
      if (r.createField) await dropField(c.collection, r.field);
      throw err;
    }
    return `${r.field} now holds one item of ${related.collection}.`;
  }
  if (r.kind === 'o2m') {
    const child = named(r.child);
    if (r.createKey) await addField(child.collection, r.key, keyTypeOf(c));
    try {
      await relate({
        collection: child.collection,
        field: r.key,
        related_collection: c.collection,
        meta: { one_field: r.alias, one_deselect_action: r.deselect },
        schema: { on_delete: r.deselect === 'delete' ? 'CASCADE' : 'SET NULL' },
      });
    } catch (err) {
      if (r.createKey) await dropField(child.collection, r.key);
      throw err;
    }
    return `${r.alias} now lists the items of ${child.collection} by their ${r.key}.`;
  }
  const related = named(r.related);
  const [mine, theirs] = junctionKeys(c.collection, related.collection);
  const junction = {
    collection: r.junction,
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
      { field: mine, type: keyTypeOf(c) },
      { field: theirs, type: keyTypeOf(related) },
    ],
  };
  await ok(api.POST('/collections', { body: junction as never }));
  try {
    await relate({
      collection: r.junction,
      field: mine,
      related_collection: c.collection,
      meta: { one_field: r.alias, junction_field: theirs, one_deselect_action: 'delete' },
      schema: { on_delete: 'CASCADE' },
    });
    await relate({
      collection: r.junction,
      field: theirs,
      related_collection: related.collection,
      meta: { junction_field: mine },
      schema: { on_delete: 'CASCADE' },
    });
  } catch (err) {
    // the junction's relations go with it
    await ok(api.DELETE('/collections/{name}', { params: { path: { name: r.junction } } })).catch(() => undefined);
    throw err;
  }
  return `${r.alias} now links items of ${related.collection} through the new collection ${r.junction}.`;
}

/** Remove a relational field's relations (a many-to-many: both of its junction's; the junction collection stays). */
export async function removeRelation(f: { relation: { collection: string; field: string }; other?: { collection: string; field: string } }) {
  for (const r of [f.relation, ...(f.other ? [f.other] : [])])
    await ok(api.DELETE('/relations/{collection}/{field}', { params: { path: { collection: r.collection, field: r.field } } }));
}
