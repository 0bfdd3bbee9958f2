// The row filter's test of a revision's collection, with the collections written into the statement.

/** A text as an SQL string literal (standard_conforming_strings, PostgreSQL's default since 9.1: only `'` doubles). */
export const textLiteral = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/**
 * `= 'a'` for one collection, `= ANY (ARRAY['a', 'b']::text[])` for several (none: `= ANY (ARRAY[]::text[])`, false).
 * Written in, not a parameter: a statement prepared with it is planned for these collections (a generic plan knows
 * them), and one collection is a plain equality, which the (collection, id) index reads in id order.
 */
export const collectionTestSql = (collections: readonly string[]): string =>
  collections.length === 1 ? `= ${textLiteral(collections[0]!)}` : `= ANY (ARRAY[${collections.map(textLiteral).join(', ')}]::text[])`;
