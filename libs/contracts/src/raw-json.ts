import { randomBytes } from 'node:crypto';

/** While `stringifyJson` runs: the texts of the RawJson values met so far (each left a placeholder). */
let collected: string[] | undefined;
/** The placeholder is a JSON string no other value serializes to: a NUL (escaped as \u0000) and a per-process nonce. */
const NONCE = randomBytes(9).toString('base64url');
const PLACEHOLDER = new RegExp(`"\\\\u0000${NONCE}:(\\d+)"`, 'g');

/**
 * A JSON value kept as the text the database gave (e.g. `jsonb::text`): `stringifyJson` splices it into a
 * response as is, with no parse and no stringify on the way. Plain `JSON.stringify` still works (it parses the
 * text), so a value that ends up elsewhere (a log, GraphQL) keeps its meaning.
 */
export class RawJson {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    if (!collected) return JSON.parse(this.text);
    return `\u0000${NONCE}:${collected.push(this.text) - 1}`;
  }
}

export const rawJson = (text: string): RawJson => new RawJson(text);

/**
 * `JSON.stringify(value)` with every RawJson spliced in as its text (the same JSON once parsed): one native
 * stringify with short placeholders, then one pass putting the texts in their place.
 */
export function stringifyJson(value: unknown): string {
  const texts: string[] = [];
  collected = texts;
  let out: string | undefined;
  try {
    out = JSON.stringify(value);
  } finally {
    collected = undefined;
  }
  if (out === undefined) return 'null';
  if (!texts.length) return out;
  let spliced = 0;
  const done = out.replace(PLACEHOLDER, (_m, i: string) => (spliced++, texts[Number(i)]!));
  // a placeholder not in its place (a toJSON that stringified a RawJson itself): the plain, parsing way
  return spliced === texts.length ? done : JSON.stringify(value);
}
