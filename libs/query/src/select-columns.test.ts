import { planContext } from './plan-context';
import { planFields } from './plan-fields';
import type { PlanOptions } from './plan-options';
import { parseQuery } from './parse-query';
import { defineSchema } from './schema';
import { selectColumns } from './select-columns';
import { Statement } from './statement';
import { schema } from '../test/fixtures';

const select = (fields: string, opts: PlanOptions = {}) => {
  const c = planContext(schema, 'revisions', parseQuery({ fields }), opts);
  const s = new Statement(c);
  return { cols: selectColumns(s, planFields(c, c.query.fields)), s };
};

describe('selectColumns', () => {
  it('selects leaves under their aliases and each relation by its key, joined', () => {
    const { cols, s } = select('id,parent.item');
    expect(cols).toEqual(['r."id" AS "c0"', 'j1."id" AS "c1"', 'j1."item" AS "c2"']);
    expect(s.joinText()).toBe(' LEFT JOIN "revisions" AS j1 ON j1."id" = r."parent"');
  });
  it('projects values (with depth and params), reads reduced fields plainly with their `with` fields, JSON as text', () => {
    const { cols, s } = select('data,parent.data,delta', {
      jsonText: (t) => t,
      project: ({ expr, depth, params }) => `p${depth}(${expr}, ${params.add(depth)})`,
      reduce: ({ field, depth }) => (field === 'data' && depth === 0 ? { with: ['collection'], map: (v) => v } : undefined),
    });
    expect(cols).toEqual([
      'r."data"::text AS "c0"',
      'r."collection" AS "c1"',
      '(p0(r."delta", $1))::text AS "c2"',
      'j1."id" AS "c3"',
      '(p1(j1."data", $2))::text AS "c4"',
    ]);
    expect(s.params.values).toEqual([0, 1]);
  });
  it('shows a concealed field only as set or unset', () => {
    const users = defineSchema({
      u: { name: 'u', table: 'u', primaryKey: 'id', fields: { id: { type: 'integer' }, pw: { type: 'string', concealed: true } } },
    });
    const c = planContext(users, 'u', parseQuery({}), { project: () => 'never', reduce: () => ({ with: [], map: () => 'never' }) });
    expect(selectColumns(new Statement(c), planFields(c, ['*']))[1]).toBe(`CASE WHEN r."pw" IS NULL THEN NULL ELSE '**********' END AS "c1"`);
  });
});
