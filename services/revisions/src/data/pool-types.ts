import pg from 'pg';
import { parseTimestamptz, timestamptzIsoText, TIMESTAMPTZ } from './parse-timestamptz';

type TypeParsers = { getTypeParser: typeof pg.types.getTypeParser };

const INT8 = 20;
const parseInt8 = (v: string) => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
};

const poolParser = (oid: number, format?: 'text' | 'binary') =>
  oid === INT8 ? parseInt8
  : oid === TIMESTAMPTZ && format !== 'binary' ? parseTimestamptz
  : pg.types.getTypeParser(oid, format);

/** The revisions pool's parsers: bigints as numbers (ids are far below 2^53), timestamps by parseTimestamptz. */
export const poolTypes: TypeParsers = { getTypeParser: poolParser as typeof pg.types.getTypeParser };

/**
 * The pool's parsers with each timestamp read straight into the API's ISO text (timestamptzIsoText): for rows that
 * go only to the API's conversion and serializers (`convert` passes the text on as it would have written the Date),
 * never to code that needs a Date. Given to a statement as its `types`.
 */
export const isoTimestampTypes: TypeParsers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ && format !== 'binary' ? timestamptzIsoText : poolParser(oid, format)) as typeof pg.types.getTypeParser,
};
