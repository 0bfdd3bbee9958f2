import type { Response } from 'express';

/**
 * A JSON value kept as the text the database gave (e.g. `jsonb::text`): `stringifyJson` splices it into a
 * response as is, with no parse and no stringify on the way. Plain `JSON.stringify` still works (via `toJSON`),
 * so a value that ends up elsewhere (a log, GraphQL) keeps its meaning.
 */
export class RawJson {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

export const rawJson = (text: string): RawJson => new RawJson(text);

const isPlain = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
};

/** One value; undefined where JSON.stringify would leave it out. */
function text(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  if (v instanceof RawJson) return v.text;
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + (text(v[i]) ?? 'null');
    return `${out}]`;
  }
  if (!isPlain(v)) return JSON.stringify(v);
  let out = '{';
  let first = true;
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    const s = text((v as Record<string, unknown>)[k]);
    if (s === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(k)}:${s}`;
    first = false;
  }
  return `${out}}`;
}

/** `JSON.stringify(value)` with every RawJson spliced in as its text (the same JSON once parsed). */
export function stringifyJson(value: unknown): string {
  return text(value) ?? 'null';
}

/** `res.json(body)` for bodies that may hold RawJson values: the same status, headers and JSON once parsed. */
export function sendJson(res: Response, body: unknown): void {
  if (!res.get('Content-Type')) res.set('Content-Type', 'application/json');
  res.send(stringifyJson(body));
}
