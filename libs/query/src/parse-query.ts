import { errors } from '@vellum/errors';
import { AGGREGATE_FNS, META_KEYS, type AggregateFn, type MetaKey, type Query, type SortKey } from './query';

export interface ParseOptions {
  /** QUERY_LIMIT_DEFAULT (default 100). */
  limitDefault?: number;
  /** QUERY_LIMIT_MAX: caps `-1` and larger limits (unset = no cap). */
  limitMax?: number;
}

const MAX_INPUT = 64 * 1024;
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function text(name: string, v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') {
    if (v.length > MAX_INPUT) throw errors.invalidQuery(`"${name}" is too long.`);
    return v;
  }
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw errors.invalidQuery(`"${name}" must be a string.`);
}

function integer(name: string, v: unknown, min: number): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^\s*-?\d{1,16}\s*$/.test(v)) n = Number(v);
  else throw errors.invalidQuery(`"${name}" must be an integer.`);
  if (!Number.isSafeInteger(n) || n < min) throw errors.invalidQuery(`"${name}" must be an integer ≥ ${min}.`);
  return n;
}

/** A comma list or an array of comma lists → trimmed non-empty strings. */
function list(name: string, v: unknown): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  const items = Array.isArray(v) ? v : [v];
  const out: string[] = [];
  for (const item of items) {
    const s = text(name, item);
    if (s === undefined) continue;
    let parts: unknown[] | undefined;
    const trimmed = s.trim();
    if (trimmed.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(trimmed);
        if (Array.isArray(parsed)) parts = parsed;
      } catch {
        throw errors.invalidQuery(`"${name}" is not valid JSON.`);
      }
    }
    for (const p of parts ?? s.split(',')) {
      const t = text(name, p)?.trim();
      if (t) out.push(t);
    }
  }
  if (out.length > 1000) throw errors.invalidQuery(`"${name}" has too many entries.`);
  return out;
}

function jsonObject(name: string, v: unknown): Record<string, unknown> | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  let value = v;
  if (typeof v === 'string') {
    if (v.length > MAX_INPUT) throw errors.invalidQuery(`"${name}" is too long.`);
    try {
      value = JSON.parse(v);
    } catch {
      throw errors.invalidQuery(`"${name}" is not valid JSON.`);
    }
  }
  if (!isPlainObject(value)) throw errors.invalidQuery(`"${name}" must be an object.`);
  return value;
}

function parseSort(v: unknown): { sort: SortKey[] | null; random: boolean } {
  const keys = list('sort', v);
  if (!keys || keys.length === 0) return { sort: null, random: false };
  if (keys.includes('?')) {
    if (keys.length > 1) throw errors.invalidQuery('"?" (random order) cannot be combined with other sort keys.');
    return { sort: null, random: true };
  }
  return {
    sort: keys.map((k) => {
      const desc = k.startsWith('-');
      const path = desc ? k.slice(1) : k;
      if (!path) throw errors.invalidQuery('Empty sort key.');
      return { path, desc };
    }),
    random: false,
  };
}

function parseMeta(v: unknown): MetaKey[] {
  const keys = list('meta', v) ?? [];
  const out = new Set<MetaKey>();
  for (const k of keys) {
    if (k === '*') {
      out.add('total_count');
      out.add('filter_count');
    } else if ((META_KEYS as readonly string[]).includes(k)) out.add(k as MetaKey);
    else throw errors.invalidQuery(`Unknown meta "${k}": use ${META_KEYS.join(', ')} or *.`);
  }
  return [...out];
}

function parseAggregate(v: unknown): Query['aggregate'] {
  const obj = jsonObject('aggregate', v);
  if (!obj) return null;
  const out: Partial<Record<AggregateFn, string[]>> = {};
  for (const [fn, fields] of Object.entries(obj)) {
    if (!(AGGREGATE_FNS as readonly string[]).includes(fn)) throw errors.invalidQuery(`Unknown aggregate function.`);
    const names = list(`aggregate[${fn}]`, fields);
    if (!names || names.length === 0) throw errors.invalidQuery(`Aggregate "${fn}" needs at least one field.`);
    out[fn as AggregateFn] = names;
  }
  return Object.keys(out).length ? out : null;
}

/**
 * Parse a query from express `req.query` (bracket form already parsed by qs, or JSON strings) or from a SEARCH
 * body's `query` object. Only syntax is checked here (400 INVALID_QUERY); names are checked by the planner.
 */
export function parseQuery(input: unknown, opts: ParseOptions = {}): Query {
  if (input === undefined || input === null) input = {};
  if (!isPlainObject(input)) throw errors.invalidQuery('The query must be an object.');
  const raw = input;
  const get = (k: string) => (Object.hasOwn(raw, k) ? raw[k] : undefined);
  const limitDefault = opts.limitDefault ?? 100;
  let limit = integer('limit', get('limit'), -1) ?? limitDefault;
  if (opts.limitMax !== undefined && opts.limitMax >= 0 && (limit === -1 || limit > opts.limitMax)) limit = opts.limitMax;
  let offset = integer('offset', get('offset'), 0) ?? 0;
  const page = integer('page', get('page'), 0);
  if (page !== undefined && page >= 1) offset = limit === -1 ? 0 : limit * (page - 1);
  const { sort, random } = parseSort(get('sort'));
  const search = text('search', get('search'))?.trim() || null;
  if (search && search.length > 1000) throw errors.invalidQuery('"search" is too long.');
  const after = text('after', get('after'))?.trim() || null;
  const fields = list('fields', get('fields'));
  return {
    fields: fields && fields.length > 0 ? fields : ['*'],
    limit,
    offset,
    sort,
    random,
    filter: jsonObject('filter', get('filter')) ?? null,
    search,
    meta: parseMeta(get('meta')),
    aggregate: parseAggregate(get('aggregate')),
    groupBy: list('groupBy', get('groupBy')) ?? [],
    after,
  };
}
