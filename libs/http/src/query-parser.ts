import qs from 'qs';

/** express hands over `null` for a URL with no `?`. */
export type QueryParser = (text: string | null) => unknown;

/** Query strings longer than this are parsed each time (the cache holds the short, repeated ones of list pages). */
const CACHED_QUERY_MAX = 2048;
/** Distinct query texts kept; the whole cache is dropped when full (list pages repeat a few texts). */
const CACHED_QUERIES = 1000;

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

/** express's "extended" query parser (qs with prototypes allowed), as express 5 compiles it. */
export const extendedQueryParser: QueryParser = (text) => qs.parse(text ?? '', { allowPrototypes: true });

/**
 * A query parser for `app.set('query parser', …)` that keeps its value (frozen: read-only, as express 5 means
 * `req.query` to be) for the same text: express 5 parses again on every `req.query` read (a list request read it
 * three times), and a list page is asked with the same few texts over and over, so what is derived from the object
 * (the parsed query language) can be kept too.
 */
export function cachedQueryParser(parse: QueryParser = extendedQueryParser): QueryParser {
  const seen = new Map<string, unknown>();
  return (given) => {
    const text = given ?? '';
    if (text.length > CACHED_QUERY_MAX) return parse(text);
    let v = seen.get(text);
    if (v === undefined) {
      v = deepFreeze(parse(text));
      if (seen.size >= CACHED_QUERIES) seen.clear();
      seen.set(text, v);
    }
    return v;
  };
}
