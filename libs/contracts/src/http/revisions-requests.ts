import { QUERY_PARAMETERS } from '@vellum/query';
import { z } from 'zod';
import { absentAsEmpty } from './body-fields';

const PARAMETERS = QUERY_PARAMETERS.join(', ');

/** The query object: only the query language's parameters (a misspelt one is an error, not silently ignored). */
const query = z.strictObject(
  Object.fromEntries(QUERY_PARAMETERS.map((p) => [p, z.unknown().optional()])) as Record<(typeof QUERY_PARAMETERS)[number], z.ZodOptional<z.ZodUnknown>>,
  {
    error: (iss) =>
      iss.code === 'unrecognized_keys' ? `"query.${iss.keys[0]}" is not allowed (the query parameters: ${PARAMETERS})` : '"query" must be an object.',
  },
);

/**
 * `SEARCH` on a list (`/revisions`, `/activity`, `/users`, `/roles`, `/permissions`, `/items/:collection`): the
 * query of contract §5 in the body, `{"query": {...}}`. An unknown key in the body or in `query` → 400
 * INVALID_PAYLOAD; the parameters' values are checked by the query language (400 INVALID_QUERY). No body, or `{}`,
 * is the empty query.
 */
export const searchRequestSchema = absentAsEmpty(
  z.strictObject(
    {
      query: query.optional().describe(`${PARAMETERS} (contract §5)`),
    },
    {
      // an unknown key: the house wording (`"filter" is not allowed`)
      error: (iss) => (iss.code === 'unrecognized_keys' ? undefined : 'The body must be an object.'),
    },
  ),
);
export type SearchRequest = z.output<typeof searchRequestSchema>;
