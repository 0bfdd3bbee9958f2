import { planContext } from './plan-context';
import { parseQuery } from './parse-query';
import { Statement } from './statement';
import { schema } from '../test/fixtures';
import { errorCode } from '../test/error-code';

const code = errorCode;
const stmt = (opts = {}) => new Statement(planContext(schema, 'revisions', parseQuery({}), opts));

describe('Statement', () => {
  it('joins each relation path once, in the order first needed, with the row filter in its ON clause', () => {
    const s = stmt({ rowFilter: (t: { name: string }, alias: string) => (t.name === 'activity' ? `${alias}."ip" IS NULL` : null) });
    expect(s.joinText()).toBe('');
    expect(s.resolve('parent.activity.user').expr).toBe('j2."user"');
    expect(s.resolve('parent.item').expr).toBe('j1."item"');
    expect(s.resolve('activity.user').alias).toBe('j3');
    expect(s.joinText()).toBe(
      ' LEFT JOIN "revisions" AS j1 ON j1."id" = r."parent" LEFT JOIN "activity" AS j2 ON j2."id" = j1."activity" AND (j2."ip" IS NULL)' +
        ' LEFT JOIN "activity" AS j3 ON j3."id" = r."activity" AND (j3."ip" IS NULL)',
    );
  });
  it('answers 403 for unknown, non-relation and prototype segments, 400 past the depth', () => {
    const s = stmt();
    expect(code(() => s.resolve('nope'))).toBe('FORBIDDEN');
    expect(code(() => s.resolve('item.id'))).toBe('FORBIDDEN');
    expect(code(() => s.resolve('constructor'))).toBe('FORBIDDEN');
    expect(code(() => s.resolve('parent.parent.parent.parent.id'))).toBe('INVALID_QUERY');
    expect(code(() => stmt({ maxDepth: 1 }).resolve('parent.parent.id'))).toBe('INVALID_QUERY');
  });
  it('gives a value as projected, with the path depth and the statement params', () => {
    const s = stmt({
      project: ({ expr, depth, params }: { expr: string; depth: number; params: { add(v: unknown): string } }) => `p${depth}(${expr}, ${params.add('x')})`,
    });
    expect(s.value('parent.data').expr).toBe('p1(j1."data", $1)');
    expect(s.params.values).toEqual(['x']);
    expect(stmt().value('data').expr).toBe('r."data"');
  });
});
