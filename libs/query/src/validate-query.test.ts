import { parseQuery } from './parse-query';
import { validateQuery } from './validate-query';
import { schema } from '../test/fixtures';
import { errorCode } from '../test/error-code';

const code = errorCode;
const validate = (raw: Record<string, unknown>) => validateQuery(schema, 'revisions', parseQuery(raw), {});

describe('validateQuery', () => {
  it('checks the table (a programming error), then fields, then the order and cursor — the first problem wins', () => {
    expect(() => validateQuery(schema, 'nope', parseQuery({}), {})).toThrow('planQuery: unknown table nope');
    expect(() => validateQuery(schema, 'toString', parseQuery({}), {})).toThrow(/unknown table/);
    expect(code(() => validate({ fields: 'nope', after: 'x' }))).toBe('FORBIDDEN');
    expect(code(() => validate({ fields: 'id', after: 'x' }))).toBe('INVALID_QUERY');
    // names outside `fields` are the compiling stages' to check
    expect(code(() => validate({ filter: { nope: { _eq: 1 } }, sort: 'nope', groupBy: 'nope' }))).toBe('ok');
  });
  it('gives the context with the options defaulted, the field tree and the order', () => {
    const v = validate({ fields: 'id', sort: '-id' });
    expect(v.ctx).toMatchObject({ maxDepth: 3, deferFrom: 1000, rootFrom: '"revisions" AS r', pkExpr: 'r."id"', valueCtx: { user: null, role: null } });
    expect([...v.tree.leaves.keys()]).toEqual(['id']);
    expect(v.order).toMatchObject({ keyset: true, keysetDesc: true });
  });
});
