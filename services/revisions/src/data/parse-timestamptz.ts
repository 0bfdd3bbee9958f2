import pg from 'pg';

const TIMESTAMPTZ = 1184;
const postgresDate = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => unknown;

/** The positions of a `YYYY-MM-DD HH:MM:SS` head: digits, and the separators between them. */
const DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];
const SEPARATORS: [number, number][] = [[4, 45], [7, 45], [10, 32], [13, 58], [16, 58]];

const isDigit = (c: number) => c >= 48 && c <= 57;

/** The common text: a 4-digit year from 1000, UTC (`+00`), a fraction of 1 to 6 digits or none. */
function common(s: string): boolean {
  const n = s.length;
  if (n < 22 || n > 29 || n === 23 || s.charCodeAt(n - 3) !== 43 || s.charCodeAt(n - 2) !== 48 || s.charCodeAt(n - 1) !== 48) return false;
  if (s.charCodeAt(0) === 48) return false; // a year below 1000 (postgres-date's 0–99 rule): its way
  for (const i of DIGITS) if (!isDigit(s.charCodeAt(i))) return false;
  for (const [i, c] of SEPARATORS) if (s.charCodeAt(i) !== c) return false;
  if (n === 22) return true;
  if (s.charCodeAt(19) !== 46) return false;
  for (let i = 20; i < n - 3; i++) if (!isDigit(s.charCodeAt(i))) return false;
  return true;
}

const num = (s: string, from: number, to: number) => {
  let v = 0;
  for (let i = from; i < to; i++) v = v * 10 + s.charCodeAt(i) - 48;
  return v;
};

/**
 * pg's parser of `timestamptz` text (postgres-date) for what PostgreSQL writes in UTC with the ISO DateStyle —
 * `2026-11-27 08:00:00.123456+00` — read by position instead of its three regular expressions: the same Date (the
 * fraction's milliseconds computed as it computes them). Any other text (another offset, BC, infinity, a year
 * below 1000 or past 9999) goes to postgres-date itself.
 */
export function parseTimestamptz(s: string): unknown {
  if (!common(s)) return postgresDate(s);
  const n = s.length;
  const ms = n === 22 ? 0 : 1000 * parseFloat(s.slice(19, n - 3));
  return new Date(Date.UTC(num(s, 0, 4), num(s, 5, 7) - 1, num(s, 8, 10), num(s, 11, 13), num(s, 14, 16), num(s, 17, 19), ms));
}

/**
 * `parseTimestamptz(s).toISOString()` — the API's text of a timestamp, `2026-11-27T08:00:00.123Z` (the fraction cut
 * to milliseconds, as the Date cuts it) — written from the common UTC text by position, without a Date. Any other
 * text gives parseTimestamptz's value (a Date, or postgres-date's Infinity), which the API's conversion writes as it
 * always has.
 */
export function timestamptzIsoText(s: string): unknown {
  if (!common(s)) return postgresDate(s);
  const n = s.length;
  const ms = n === 22 ? '000' : n >= 26 ? s.slice(20, 23) : `${s.slice(20, n - 3)}00`.slice(0, 3);
  return `${s.slice(0, 10)}T${s.slice(11, 19)}.${ms}Z`;
}

export { TIMESTAMPTZ };
