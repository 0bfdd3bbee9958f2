import type { TreeNode } from './plan-fields';
import type { PlanOptions } from './plan-options';
import { layoutRowsSerializer, type Layout } from './serialize-layout';
import { shapeRow } from './shape-rows';
import { rowsFor, tree } from '../test/rows-for';

/** The rows as arrays over their own columns, reversed (pg's order need not be the tree's). */
function arrays(rows: Record<string, unknown>[]): { columns: string[]; rows: unknown[][] } {
  const columns = Object.keys(rows[0]!).reverse();
  return { columns, rows: rows.map((r) => columns.map((c) => r[c])) };
}

/** What GraphQL makes of a shaped object for a layout (graphql-js: ID and String serialize numbers as text). */
function graphqlValue(o: Record<string, unknown> | null, layout: Layout): unknown {
  if (o === null) return null;
  const out: Record<string, unknown> = {};
  for (const m of layout) {
    if ('text' in m) out[m.key] = JSON.parse(m.text);
    else if ('relation' in m) out[m.key] = graphqlValue(o[m.relation] as Record<string, unknown> | null, m.layout);
    else {
      const v = o[m.field];
      out[m.key] = m.as === 'json' || v === null ? v : String(v);
    }
  }
  return out;
}

const expected = (t: TreeNode, rows: Record<string, unknown>[], layout: Layout) =>
  JSON.stringify(
    rows.map((r) =>
      graphqlValue(
        shapeRow(t, r, (text) => JSON.parse(text) as unknown),
        layout,
      ),
    ),
  );

const LAYOUT: Layout = [
  { key: '__typename', text: '"vellum_revisions"' },
  { key: 'key', field: 'id', as: 'id', nonNull: true },
  { key: 'delta', field: 'delta', as: 'json' },
  {
    key: 'activity',
    relation: 'activity',
    layout: [
      { key: 'when', field: 'timestamp', as: 'string' },
      { key: 'action', field: 'action', as: 'string' },
    ],
  },
  { key: 'data', field: 'data', as: 'json' },
  { key: 'again', field: 'id', as: 'string' },
  { key: 'parent', relation: 'parent', layout: [] },
];

describe('layoutRowsSerializer (a GraphQL selection written from the rows)', () => {
  it('writes the members in the layout’s order, ids and strings as GraphQL serializes them, JSON text as it is', () => {
    const t = tree('id,delta,activity.timestamp,activity.action,data,parent.id');
    const rows = rowsFor(t, 8, true);
    const a = arrays(rows);
    const text = layoutRowsSerializer(t, LAYOUT, true, a.columns)!(a.rows)!;
    expect(JSON.stringify(JSON.parse(text))).toBe(expected(t, rows, LAYOUT));
    // an unsafe integer id stays the database's digits
    expect(text).toContain('"key":"12345678901234567890"');
  });

  it('applies reducers as shapeRow does', () => {
    const reduce: PlanOptions['reduce'] = ({ field }) =>
      field === 'data' ? { with: ['collection'], map: (v, c) => ({ only: (v as { a?: number } | null)?.a ?? null, c }), whole: (c) => c === 'all' } : undefined;
    const t = tree('id,data', { reduce });
    const rows = rowsFor(t, 6, true);
    const a = arrays(rows);
    const layout: Layout = [
      { key: 'data', field: 'data', as: 'json' },
      { key: 'id', field: 'id', as: 'id' },
    ];
    expect(JSON.stringify(JSON.parse(layoutRowsSerializer(t, layout, true, a.columns)!(a.rows)!))).toBe(expected(t, rows, layout));
  });

  it('gives no page for a null where none may be, and no writer for what the tree does not select', () => {
    const t = tree('id,item');
    const rows = rowsFor(t, 6, true); // row 5: item null
    const a = arrays(rows);
    expect(layoutRowsSerializer(t, [{ key: 'item', field: 'item', as: 'string', nonNull: true }], true, a.columns)!(a.rows)).toBeUndefined();
    expect(layoutRowsSerializer(t, [{ key: 'item', field: 'item', as: 'string' }], true, a.columns)!(a.rows)).toContain('"item":null');
    expect(layoutRowsSerializer(t, [{ key: 'c', field: 'collection', as: 'string' }], true, a.columns)).toBeUndefined();
    expect(layoutRowsSerializer(t, [{ key: 'a', relation: 'activity', layout: [] }], true, a.columns)).toBeUndefined();
    const idAlias = t.leaves.get('id')!.alias;
    expect(
      layoutRowsSerializer(
        t,
        [{ key: 'id', field: 'id', as: 'id' }],
        true,
        a.columns.filter((c) => c !== idAlias),
      ),
    ).toBeUndefined();
  });

  it('gives no page for a value GraphQL would refuse (a non-integer ID)', () => {
    const t = tree('id');
    const alias = [...t.leaves.values()][0]!.alias;
    const write = layoutRowsSerializer(t, [{ key: 'id', field: 'id', as: 'id' }], true, [alias])!;
    expect(write([['7']])).toBe('[{"id":"7"}]');
    expect(write([[1.5]])).toBeUndefined();
    expect(write([])).toBe('[]');
  });
});
