import { api, ok } from '../../api/client';
import type { Collection } from '../../data/collections';
import { keyTypeOf } from './field-types';

/** What the add-relation form asks for, per kind. */
export type NewRelation =
  | { kind: 'm2o'; field: string; createField: boolean; related: string }
  | { kind: 'o2m'; alias: string; child: string; key: string; createKey: boolean; deselect: 'nullify' | 'delete' }
  | { kind: 'm2m'; alias: string; related: string; junction: string }
  | { kind: 'm2a'; alias: string; allowed: string[]; junction: string };

/** A many-to-any junction's fields besides the key of its one side: the related collection's name and the item's key (any key type, as text). */
export const M2A_FIELDS = { collection: 'collection', item: 'item' } as const;

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
 * ends) and then both relations; a many-to-any likewise, its junction holding `collection` + `item` (Directus's builder). A step that fails undoes the steps before it, so nothing is left half made.
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
  if (r.kind === 'm2a') {
    if (r.allowed.length === 0) throw new Error('Choose at least one collection the items may come from.');
    r.allowed.forEach(named);
    const mine = `${c.collection}_id`;
    const { collection, item } = M2A_FIELDS;
    await junctionWith(r.junction, [
      { field: mine, type: keyTypeOf(c) },
      { field: item, type: 'string' },
      { field: collection, type: 'string' },
    ]);
    // as Directus's builder: the item's relation names the allowed collections and the column naming each row's
    await inJunction(r.junction, [
      {
        collection: r.junction,
        field: item,
        related_collection: null,
        meta: { one_collection_field: collection, one_allowed_collections: r.allowed, junction_field: mine },
      },
      {
        collection: r.junction,
        field: mine,
        related_collection: c.collection,
        meta: { one_field: r.alias, junction_field: item, one_deselect_action: 'delete' },
        schema: { on_delete: 'CASCADE' },
      },
    ]);
    return `${r.alias} now links items of ${r.allowed.join(', ')} through the new collection ${r.junction}.`;
  }
  const related = named(r.related);
  const [mine, theirs] = junctionKeys(c.collection, related.collection);
  await junctionWith(r.junction, [
    { field: mine, type: keyTypeOf(c) },
    { field: theirs, type: keyTypeOf(related) },
  ]);
  await inJunction(r.junction, [
    {
      collection: r.junction,
      field: mine,
      related_collection: c.collection,
      meta: { one_field: r.alias, junction_field: theirs, one_deselect_action: 'delete' },
      schema: { on_delete: 'CASCADE' },
    },
    { collection: r.junction, field: theirs, related_collection: related.collection, meta: { junction_field: mine }, schema: { on_delete: 'CASCADE' } },
  ]);
  return `${r.alias} now links items of ${related.collection} through the new collection ${r.junction}.`;
}

/** Create a junction collection: an auto-increment `id` and these fields. */
const junctionWith = (name: string, fields: object[]) =>
  ok(
    api.POST('/collections', {
      body: { collection: name, fields: [{ field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } }, ...fields] } as never,
    }),
  );

/** Add the junction's relations in order; one that fails drops the junction (its relations go with it). */
async function inJunction(junction: string, relations: object[]) {
  try {
    for (const r of relations) await relate(r);
  } catch (err) {
    await ok(api.DELETE('/collections/{name}', { params: { path: { name: junction } } })).catch(() => undefined);
    throw err;
  }
}

/** Remove a relational field's relations (a many-to-many or many-to-any: both of its junction's; the junction collection stays). */
export async function removeRelation(f: { relation: { collection: string; field: string }; other?: { collection: string; field: string } }) {
  for (const r of [f.relation, ...(f.other ? [f.other] : [])])
    await ok(api.DELETE('/relations/{collection}/{field}', { params: { path: { collection: r.collection, field: r.field } } }));
}
