import type { RelationalField } from '../../data/relations';

/** A relational field in words, as the data model lists it. */
export function describeRelation(r: RelationalField): string {
  switch (r.kind) {
    case 'm2o':
      return `many-to-one: holds one item of ${r.related}`;
    case 'o2m':
      return `one-to-many: the items of ${r.child} whose ${r.key} is this item (an unlinked one is ${r.deselect === 'delete' ? 'deleted' : 'kept, its key emptied'})`;
    case 'm2m':
      return `many-to-many: items of ${r.related} through the junction ${r.junction} (${r.key}, ${r.otherKey})`;
    case 'm2a':
      return `many-to-any: items of ${r.allowed.join(', ') || 'any collection'} through the junction ${r.junction} (${r.key}, ${r.collectionField} + ${r.otherKey})`;
    case 'any':
      return `many-to-any item: a key of one item of ${r.allowed.join(', ') || 'any collection'}, the collection named by ${r.collectionField}`;
  }
}

/** What removing a relational field takes away, for the confirmation. */
export function whatRemovalLoses(r: RelationalField, items?: number): string {
  const n = items === undefined ? 'every item' : `${items} ${items === 1 ? 'item' : 'items'}`;
  switch (r.kind) {
    case 'm2o':
      return `Remove the field ${r.field}? Its values in ${n} and its relation to ${r.related} are deleted for good (the revisions keep the values).`;
    case 'o2m':
      return `Remove the one-to-many field ${r.field}? The relation goes; the items of ${r.child} and their ${r.key} values stay.`;
    case 'any':
      return `Remove the many-to-any relation of ${r.field}? The values of ${r.field} and ${r.collectionField} stay; they are no longer read as items of ${r.allowed.join(', ') || 'other collections'}.`;
    case 'm2m':
    case 'm2a':
      return `Remove the ${r.kind === 'm2m' ? 'many-to-many' : 'many-to-any'} field ${r.field}? Both relations of ${r.junction} go; the collection ${r.junction} and its rows stay.`;
  }
}
