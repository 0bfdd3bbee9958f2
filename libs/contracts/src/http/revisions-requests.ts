import { absentAsEmpty } from './body-fields';
import { z } from 'zod';

/**
 * `SEARCH /revisions` (and `/activity`): the query of contract §5 in the body, `{"query": {...}}`. The query's
 * parameters are checked by the query language (400 INVALID_QUERY), not here. No body, or `{}`, is the empty query.
 */
export const searchRequestSchema = absentAsEmpty(
  z.object(
    {
      query: z
        .record(z.string(), z.unknown(), { error: '"query" must be an object.' })
        .optional()
        .describe(
          'fields, filter, search, sort, limit, offset, page, meta, aggregate, groupBy (contract §5)',
        ),
    },
    { error: 'The body must be an object.' },
  ),
);
export type SearchRequest = z.output<typeof searchRequestSchema>;
