import type { Collection } from './collections';
import { displayFields, displayLabel, labelQuery } from './display';

const authors = (template?: string): Collection => ({
  collection: 'authors',
  primary_key: 'id',
  fields: [
    { field: 'id', type: 'integer' },
    { field: 'age', type: 'integer' },
    { field: 'name', type: 'string' },
    { field: 'email', type: 'string' },
  ],
  meta: template === undefined ? null : { display_template: template },
});

describe('display labels', () => {
  it('fills the display template with the fields it names', () => {
    expect(displayLabel(authors('{{name}} <{{ email }}>'), { id: 1, name: 'Ann', email: 'ann@example.com' })).toBe('Ann <ann@example.com>');
    expect(labelQuery(authors('{{name}} <{{email}}>'))).toBe('id,name,email');
  });
  it('without a template (or one naming no field): the first text field; empty: the collection and key', () => {
    expect(displayFields(authors())).toEqual(['name']);
    expect(displayFields(authors('{{nothing}}'))).toEqual(['name']);
    expect(displayLabel(authors(), { id: 2, name: 'Bob' })).toBe('Bob');
    expect(displayLabel(authors(), { id: 3, name: null })).toBe('authors 3');
  });
  it('a collection without a text field is named by its key; a new item without values says it is new', () => {
    const numbers: Collection = {
      collection: 'numbers',
      primary_key: 'id',
      fields: [
        { field: 'id', type: 'integer' },
        { field: 'n', type: 'integer' },
      ],
    };
    expect(displayFields(numbers)).toEqual([]);
    expect(displayLabel(numbers, { id: 7, n: 1 })).toBe('numbers 7');
    expect(displayLabel(numbers, { n: 1 })).toBe('new numbers item');
  });
});
