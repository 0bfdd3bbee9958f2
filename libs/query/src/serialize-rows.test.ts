import type { TreeNode } from './plan-fields';
import type { PlanOptions } from './plan-options';
import { arrayRowsSerializer, rowsSerializer } from './serialize-rows';
import { shapeRow } from './shape-rows';
import { rowsFor, tree } from '../test/rows-for';

/** What the response had before: shaped objects, JSON text parsed in place, stringified. */
const shaped = (t: TreeNode, rows: Record<string, unknown>[], jsonText: boolean) =>
  JSON.stringify(rows.map((r) => shapeRow(t, r, jsonText ? (text) => JSON.parse(text) as unknown : undefined)));

describe('rowsSerializer', () => {
  const shapes = [
    '*',
    'id,collection,item,data,delta',
    'id,activity.action,activity.timestamp,activity.user,data',
    'id,parent.id,parent.data,parent.activity.action,version',
    'activity.*,parent.*,*',
    'delta,id,activity,collection',
  ];
  for (const fields of shapes)
    for (const jsonText of [true, false])
      it(`writes exactly what shaping and stringifying gives: fields=${fields}, JSON ${jsonText ? 'as text' : 'parsed'}`, () => {
        const t = tree(fields);
        const rows = rowsFor(t, 8, jsonText);
        const text = rowsSerializer(t, jsonText)!(rows);
        // the same JSON with the same key order (JSON text goes in with the database's own spacing)
        expect(JSON.stringify(JSON.parse(text))).toBe(shaped(t, rows, jsonText));
        if (!jsonText) expect(text).toBe(shaped(t, rows, false));
      });

  it('applies reducers as shapeRow does: whole values stay text, others are mapped, undefined leaves the key out', () => {
    const reduce: PlanOptions['reduce'] = ({ field }) =>
      field === 'data'
        ? { with: ['collection'], map: (v, c) => (c === 'all' ? v : { only: (v as { a?: number } | null)?.a ?? null, c }), whole: (c) => c === 'all' }
        : field === 'delta'
          ? { with: [], map: () => undefined }
          : undefined;
    const t = tree('id,data,delta', { reduce });
    const rows = rowsFor(t, 6, true);
    const text = rowsSerializer(t, true)!(rows);
    expect(JSON.stringify(JSON.parse(text))).toBe(shaped(t, rows, true));
    expect(text.match(/"delta"/g)).toHaveLength(2); // only where the value was null (not text): mapped to undefined elsewhere
    expect(text).toContain('"only":1');
  });

  it('writes an empty page and non-finite numbers as JSON does', () => {
    const t = tree('id,item');
    expect(rowsSerializer(t, true)!([])).toBe('[]');
    const rows = [{ [[...t.leaves.values()][0]!.alias]: Number.NaN, [[...t.leaves.values()][1]!.alias]: 'x' }];
    expect(rowsSerializer(t, true)!(rows)).toBe(shaped(t, rows, true));
  });

  it('declines a tree whose keys JSON would reorder (the caller shapes and stringifies)', () => {
    const t = tree('id,item');
    const leaf = t.leaves.get('item')!;
    t.leaves.set('7', { ...leaf, field: '7' });
    expect(rowsSerializer(t, true)).toBeUndefined();
  });
});

describe('arrayRowsSerializer (rows read with rowMode: array)', () => {
  /** The same rows as arrays over `columns` (pg's result.fields order), with an extra column the tree does not use. */
  const asArrays = (rows: Record<string, unknown>[], columns: string[]) => rows.map((r) => columns.map((c) => (c === 'extra' ? 'ignored' : r[c])));

  for (const fields of ['*', 'id,activity.action,activity.timestamp,activity.user,data', 'activity.*,parent.*,*'])
    for (const jsonText of [true, false])
      it(`writes exactly what rowsSerializer writes from objects, whatever the column order: fields=${fields}, JSON ${jsonText ? 'as text' : 'parsed'}`, () => {
        const t = tree(fields);
        const rows = rowsFor(t, 8, jsonText);
        const names = Object.keys(rows[0]!);
        for (const columns of [names, [...names].reverse(), ['extra', ...names.slice(1), names[0]!]]) {
          const write = arrayRowsSerializer(t, jsonText, columns)!;
          expect(write(asArrays(rows, columns))).toBe(rowsSerializer(t, jsonText)!(rows));
        }
      });

  it('applies reducers with their `with` columns read by position', () => {
    const reduce: PlanOptions['reduce'] = ({ field }) =>
      field === 'data' ? { with: ['collection'], map: (v, c) => ({ only: (v as { a?: number } | null)?.a ?? null, c }), whole: (c) => c === 'all' } : undefined;
    const t = tree('id,data', { reduce });
    const rows = rowsFor(t, 6, true);
    const columns = Object.keys(rows[0]!).reverse();
    expect(arrayRowsSerializer(t, true, columns)!(asArrays(rows, columns))).toBe(rowsSerializer(t, true)!(rows));
  });

  it('declines columns that lack one the tree reads, and a tree JSON would reorder', () => {
    const t = tree('id,item');
    const columns = Object.keys(rowsFor(t, 1, true)[0]!);
    expect(arrayRowsSerializer(t, true, columns.slice(1))).toBeUndefined();
    t.leaves.set('7', { ...t.leaves.get('item')!, field: '7' });
    expect(arrayRowsSerializer(t, true, columns)).toBeUndefined();
  });

  it('puts raw members on each object as shaping then assigning them would: appended, or in the place of a key it has', () => {
    const t = tree('id,activity.action,item');
    const rows = rowsFor(t, 5, false);
    const raws = rows.map((_r, i) => (i === 2 ? null : `[{"n":${i}}, "x"]`));
    const names = [...Object.keys(rows[0]!), 'raw'];
    const arrays = asArrays(rows, names).map((a, i) => (a.splice(names.length - 1, 1, raws[i]), a));
    const assigned = (name: string) =>
      JSON.stringify(rows.map((r, i) => Object.assign(shapeRow(t, r, undefined), { [name]: raws[i] === null ? null : (JSON.parse(raws[i]!) as unknown) })));
    for (const name of ['comments', 'item', 'activity']) {
      const text = arrayRowsSerializer(t, false, names, [{ name, column: 'raw' }])!(arrays);
      expect(JSON.stringify(JSON.parse(text))).toBe(assigned(name));
      expect(text).toContain(`"${name}":[{"n":1}, "x"]`); // the column's text as it is
    }
    expect(arrayRowsSerializer(t, false, names, [{ name: '7', column: 'raw' }])).toBeUndefined();
  });
});
