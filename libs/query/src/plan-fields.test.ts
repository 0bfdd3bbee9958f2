import { planContext } from './plan-context';
import { planFields, type TreeNode } from './plan-fields';
import type { PlanOptions } from './plan-options';
import { parseQuery } from './parse-query';
import { schema } from '../test/fixtures';
import { errorCode } from '../test/error-code';

const code = errorCode;
const fields = (f: string, opts: PlanOptions = {}) => planFields(planContext(schema, 'revisions', parseQuery({ fields: f }), opts), f.split(','));
/** The tree as `{ field: alias, relation: { pk: alias, … } }`. */
const aliases = (n: TreeNode): Record<string, unknown> => ({
  ...Object.fromEntries([...n.leaves].map(([k, l]) => [k, l.withAliases ? [l.alias, ...l.withAliases] : l.alias])),
  ...Object.fromEntries([...n.children].map(([k, c]) => [k, { pk: c.pkAlias, ...aliases(c.node) }])),
});

describe('planFields', () => {
  it('gives leaves, then relations, aliases in tree order; a field selected also as a relation is the relation', () => {
    expect(aliases(fields('parent.item,id,activity.user,parent'))).toEqual({
      id: 'c0',
      parent: { pk: 'c1', item: 'c2' },
      activity: { pk: 'c3', user: 'c4' },
    });
  });
  it('expands * and *.* (relations one level, within maxDepth)', () => {
    expect(Object.keys(aliases(fields('*')))).toEqual(['id', 'activity', 'collection', 'item', 'data', 'delta', 'parent', 'version']);
    const all = aliases(fields('*.*'));
    expect(all.activity).toMatchObject({ pk: expect.any(String), timestamp: expect.any(String) });
    expect(all.parent).toMatchObject({ parent: expect.any(String) }); // one level only
    expect(aliases(fields('*.*', { maxDepth: 0 })).parent).toBe('c6');
  });
  it('asks reducers for every readable leaf with its depth, and aliases their `with` fields', () => {
    const seen: string[] = [];
    const tree = fields('id,parent.data', {
      reduce: ({ field, depth }) => {
        seen.push(`${field}@${depth}`);
        return field === 'data' ? { with: ['collection', 'item'], map: (v) => v } : undefined;
      },
    });
    expect(seen).toEqual(['id@0', 'data@1']);
    expect(aliases(tree)).toEqual({ id: 'c0', parent: { pk: 'c1', data: ['c2', 'c3', 'c4'] } });
    expect(() => fields('data', { reduce: () => ({ with: ['nope'], map: (v) => v }) })).toThrow(/unknown field revisions.nope/);
  });
  it('refuses unknown fields (403), bad wildcards, empty segments, depth and count (400)', () => {
    expect(code(() => fields('nope'))).toBe('FORBIDDEN');
    expect(code(() => fields('item.id'))).toBe('FORBIDDEN');
    expect(code(() => fields('__proto__'))).toBe('FORBIDDEN');
    expect(code(() => fields('*.id'))).toBe('INVALID_QUERY');
    expect(code(() => fields('parent..id'))).toBe('INVALID_QUERY');
    expect(code(() => fields('parent.parent.parent.parent.id'))).toBe('INVALID_QUERY');
    expect(code(() => fields(Array.from({ length: 201 }, () => 'id').join(',')))).toBe('INVALID_QUERY');
  });
});
