import pg from 'pg';
import { parseTimestamptz, timestamptzIsoText, TIMESTAMPTZ } from './parse-timestamptz';

type TypeParsers = { getTypeParser: typeof pg.types.getTypeParser };

const INT8 = 20;
const parseInt8 = (v: string) => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
};

/** pg's parsers with bigints as numbers (ids are far below 2^53) and `timestamptz` text read by `timestamp`. */
const parsers = (timestamp: (text: string) => unknown): TypeParsers => ({
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 ? parseInt8
    : oid === TIMESTAMPTZ && format !== 'binary' ? timestamp
    : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
});

/** The revisions pool's parsers: timestamps as Dates, by parseTimestamptz. */
export const poolTypes = parsers(parseTimestamptz);

/**
 * The pool's parsers with each timestamp read straight into the API's ISO text (timestamptzIsoText): for rows that
 * go only to the API's conversion and serializers (`convert` passes the text on as it would have written the Date),
 * never to code that needs a Date. Given to a statement as its `types`.
 */
export const isoTimestampTypes = parsers(timestamptzIsoText);
