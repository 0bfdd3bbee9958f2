import { planContext } from './plan-context';
import { planFields } from './plan-fields';
import type { PlanOptions } from './plan-options';
import { parseQuery } from './parse-query';
import { convert, shapeRow } from './shape-rows';
import { schema } from '../test/fixtures';

const tree = (fields: string, opts: PlanOptions = {}) => planFields(planContext(schema, 'revisions', parseQuery({ fields }), opts), fields.split(','));

describe('convert', () => {
  it('gives safe integers as numbers, floats as numbers, dates and timestamps as text', () => {
    expect(convert('bigInteger', '12')).toBe(12);
    expect(convert('bigInteger', '12345678901234567890')).toBe('12345678901234567890');
    expect(convert('float', '1.5')).toBe(1.5);
    expect(convert('decimal', '1.50')).toBe('1.50');
    expect(convert('date', new Date(2026, 0, 2))).toBe('2026-01-02');
    expect(convert('timestamp', new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05.000Z');
    expect(convert('string', undefined)).toBeNull();
  });
});

describe('shapeRow', () => {
  it('nests relations (null when the related key is null) and converts values', () => {
    const t = tree('id,parent.id,parent.item');
    expect(shapeRow(t, { c0: '5', c1: '4', c2: '4', c3: 'x' }, undefined)).toEqual({ id: 5, parent: { id: 4, item: 'x' } });
    expect(shapeRow(t, { c0: '5', c1: null, c2: null, c3: null }, undefined)).toEqual({ id: 5, parent: null });
  });
  it('keeps JSON text whole (jsonText) unless its reducer changes it, and maps reduced values with their `with` fields', () => {
    const wrap = (text: string) => ({ raw: text });
    const t = tree('data,delta', {
      reduce: ({ field }) => (field === 'data' ? { with: ['collection'], map: (v, c) => ({ v, c }), whole: (c) => c === 'all' } : undefined),
    });
    expect(shapeRow(t, { c0: '{"a":1}', c1: 'all', c2: '[1]' }, wrap)).toEqual({ data: { raw: '{"a":1}' }, delta: { raw: '[1]' } });
    expect(shapeRow(t, { c0: '{"a":1}', c1: 'some', c2: null }, wrap)).toEqual({ data: { v: { a: 1 }, c: 'some' }, delta: null });
    expect(shapeRow(t, { c0: { a: 1 }, c1: 'some', c2: [1] }, undefined)).toEqual({ data: { v: { a: 1 }, c: 'some' }, delta: [1] });
  });
});
