import { collectionTestSql } from './collection-test-sql';

describe('collectionTestSql', () => {
  it('writes one collection as an equality and several as ANY of an array', () => {
    expect(collectionTestSql(['posts'])).toBe(`= 'posts'`);
    expect(collectionTestSql(['a', 'b'])).toBe(`= ANY (ARRAY['a', 'b']::text[])`);
    expect(collectionTestSql([])).toBe(`= ANY (ARRAY[]::text[])`);
  });
  it('doubles quotes, so a collection name cannot end the literal', () => {
    expect(collectionTestSql([`x' OR true --`])).toBe(`= 'x'' OR true --'`);
    // pg's escapeLiteral: a backslash makes an E'' literal with the backslash doubled
    expect(collectionTestSql([`o'brien`, `\\`])).toBe(`= ANY (ARRAY['o''brien',  E'\\\\']::text[])`);
  });
});
