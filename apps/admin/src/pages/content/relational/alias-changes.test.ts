import type { RelationalField } from '../../../data/relations';
import { aliasChanges } from './alias-changes';

const rel = { collection: 'x', field: 'y', related_collection: 'z', meta: {} };
const o2m: RelationalField = { kind: 'o2m', field: 'comments', child: 'comments', key: 'article', deselect: 'nullify', relation: rel };
const m2m: RelationalField = {
  kind: 'm2m',
  field: 'tags',
  junction: 'articles_tags',
  key: 'articles_id',
  otherKey: 'tags_id',
  related: 'tags',
  relation: rel,
  other: rel,
};

describe('aliasChanges', () => {
  it('nothing changed: nothing sent', () => {
    expect(aliasChanges(o2m, { added: [], removed: [] }, 'id')).toBeUndefined();
  });
  it('one-to-many: new children created, existing ones linked by key, unlinked ones named in delete', () => {
    const edit = {
      added: [
        { kind: 'new' as const, data: { body: 'hi' }, label: 'hi' },
        { kind: 'link' as const, key: 7, label: 'seven' },
      ],
      removed: [3],
    };
    expect(aliasChanges(o2m, edit, 'id')).toEqual({ create: [{ body: 'hi' }], update: [{ id: 7 }], delete: [3] });
  });
  it('many-to-many: junction rows created holding a new or an existing related item; unlinked junction rows deleted', () => {
    const edit = {
      added: [
        { kind: 'new' as const, data: { name: 'news' }, label: 'news' },
        { kind: 'link' as const, key: 2, label: 'tech' },
      ],
      removed: [5],
    };
    expect(aliasChanges(m2m, edit, 'id')).toEqual({ create: [{ tags_id: { name: 'news' } }, { tags_id: 2 }], update: [], delete: [5] });
  });
  it('many-to-any: junction rows created naming the collection and holding a new item or an existing key (as text)', () => {
    const m2a: RelationalField = {
      kind: 'm2a',
      field: 'sections',
      junction: 'pages_sections',
      key: 'pages_id',
      otherKey: 'item',
      collectionField: 'collection',
      allowed: ['headings', 'texts'],
      relation: rel,
      other: rel,
    };
    const edit = {
      added: [
        { kind: 'new' as const, data: { title: 'Hi' }, label: 'Hi', collection: 'headings' },
        { kind: 'link' as const, key: 4, label: 'body', collection: 'texts' },
      ],
      removed: [9],
    };
    expect(aliasChanges(m2a, edit, 'id')).toEqual({
      create: [
        { collection: 'headings', item: { title: 'Hi' } },
        { collection: 'texts', item: '4' },
      ],
      update: [],
      delete: [9],
    });
  });
});
