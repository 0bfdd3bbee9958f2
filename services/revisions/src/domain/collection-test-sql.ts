// The row filter's test of a revision's collection, with the collections written into the statement.
import { escapeLiteral } from 'pg';

/**
 * `= 'a'` for one collection, `= ANY (ARRAY['a', 'b']::text[])` for several (none: `= ANY (ARRAY[]::text[])`, false).
 * Written in, not a parameter: a statement prepared with it is planned for these collections (a generic plan knows
 * them), and one collection is a plain equality, which the (collection, id) index reads in id order. Names are
 * quoted by pg's escapeLiteral.
 */
export const collectionTestSql = (collections: readonly string[]): string =>
  collections.length === 1 ? `= ${escapeLiteral(collections[0]!)}` : `= ANY (ARRAY[${collections.map(escapeLiteral).join(', ')}]::text[])`;
