import { resolveDynamic, type ValueContext } from '@vellum/query';

/**
 * matchFilter (match-filter.ts) as SQL over a past state's `data` jsonb, for a list as it was filtered in its own
 * statement. Each test is `hit` (the row matches) and `odd` (SQL may not answer as matchFilter would for this row's
 * value: a number compared with a word, text against a number, an object, case folding beyond ASCII, text order
 * where UTF-16 and UTF-8 differ); a statement with any odd row is answered by the general path instead. A filter
 * matchFilter would refuse or could throw on (an unknown operator, a hidden field, …) is not compiled: NotInSql.
 */
export class NotInSql extends Error {}

/** The statement's parameters; `add` answers the placeholder with its cast. */
export class SqlParams {
  readonly values: unknown[];
  private readonly fields = new Map<string, string>();

  constructor(first: unknown[]) {
    this.values = [...first];
  }

  add(v: unknown, cast: string): string {
    this.values.push(v);
    return `$${this.values.length}::${cast}`;
  }

  /** The state's value of a top-level field (jsonb, SQL null when absent): a column `x.fN`, read once per state. */
  field(name: string): string {
    let col = this.fields.get(name);
    if (!col) this.fields.set(name, (col = `f${this.fields.size}`));
    return `x.${col}`;
  }

  /** The field columns the statement reads from each state's `data`. */
  columns(): { name: string; param: string }[] {
    return [...this.fields].map(([name, col]) => ({ name: col, param: this.add(name, 'text') }));
  }
}

export interface SqlTest {
  hit: string;
  odd: string;
}

type Rel = '=' | '<>' | '<' | '<=' | '>' | '>=';
const ALWAYS: SqlTest = { hit: 'true', odd: 'false' };
const NEVER: SqlTest = { hit: 'false', odd: 'false' };
const UNSURE: SqlTest = { hit: 'false', odd: 'true' };
const RELATIONS: Record<string, Rel> = { _eq: '=', _neq: '<>', _lt: '<', _lte: '<=', _gt: '>', _gte: '>=' };
/** Characters whose UTF-16 order differs from their UTF-8 (byte) order when they meet: U+E000 and above. */
const HIGH = /[\uE000-\uFFFF\uD800-\uDFFF]/;
const HIGH_SQL = `'[\\uE000-\\U0010FFFF]'`;
/** A lone surrogate: text PostgreSQL cannot hold as JavaScript does. */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNullSql = (v: string) => `coalesce(jsonb_typeof(${v}), 'null') = 'null'`;
const text = (v: string) => `(${v} #>> '{}')`;
const byType = (v: string, t: Partial<Record<'number' | 'string' | 'boolean' | 'object' | 'array', SqlTest>>): SqlTest => {
  const branch = (k: 'hit' | 'odd') =>
    `CASE jsonb_typeof(${v}) ${Object.entries(t)
      .map(([type, x]) => `WHEN '${type}' THEN ${x[k]}`)
      .join(' ')} ELSE false END`;
  return { hit: branch('hit'), odd: branch('odd') };
};
const and = (a: SqlTest, b: SqlTest): SqlTest => ({ hit: `(${a.hit} AND ${b.hit})`, odd: `(${a.odd} OR ${b.odd})` });
const not = (a: SqlTest): SqlTest => ({ hit: `(NOT ${a.hit})`, odd: a.odd });
const any = (xs: SqlTest[]): SqlTest => ({ hit: `(${xs.map((x) => x.hit).join(' OR ')})`, odd: `(${xs.map((x) => x.odd).join(' OR ')})` });

/** `compare(v, arg) REL 0` of match-filter.ts for a present `v` and a non-null `arg`, by the type of `v`. */
function compareSql(p: SqlParams, v: string, arg: unknown, rel: Rel): SqlTest {
  if (arg === undefined) throw new NotInSql();
  const y = Number(arg);
  const t = typeof arg === 'string' ? arg : arg instanceof Date ? arg.toISOString() : JSON.stringify(arg);
  if (typeof t !== 'string' || LONE.test(t)) throw new NotInSql();
  const equality = rel === '=' || rel === '<>';
  // a number against a word compares JSON texts: unequal for sure, else JavaScript's number formatting
  const number = !Number.isNaN(y) ? { hit: `(${v})::float8 ${rel} ${p.add(y, 'float8')}`, odd: 'false' } : equality ? (rel === '=' ? NEVER : ALWAYS) : UNSURE;
  // text against a number: JavaScript's Number() of the text
  const string =
    typeof arg === 'number'
      ? UNSURE
      : { hit: `${text(v)} COLLATE "C" ${rel} ${p.add(t, 'text')}`, odd: !equality && HIGH.test(t) ? `${text(v)} ~ ${HIGH_SQL}` : 'false' };
  const bool =
    typeof arg === 'number' || typeof arg === 'boolean'
      ? { hit: `(${v})::boolean::int ${rel} ${p.add(Number(arg), 'float8')}`, odd: 'false' }
      : { hit: `(${v})::text COLLATE "C" ${rel} ${p.add(t, 'text')}`, odd: 'false' };
  return byType(v, { number, string, boolean: bool, object: UNSURE, array: UNSURE });
}

const listOf = (v: unknown): unknown[] => {
  const arr = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v];
  if (arr.length === 0 || arr.length > 100) throw new NotInSql();
  return arr;
};
const flag = (arg: unknown) => arg === true || arg === 'true';
const LIKE: Record<string, [negated: boolean, insensitive: boolean, kind: 'contains' | 'starts' | 'ends']> = {
  _contains: [false, false, 'contains'],
  _ncontains: [true, false, 'contains'],
  _icontains: [false, true, 'contains'],
  _starts_with: [false, false, 'starts'],
  _nstarts_with: [true, false, 'starts'],
  _istarts_with: [false, true, 'starts'],
  _nistarts_with: [true, true, 'starts'],
  _ends_with: [false, false, 'ends'],
  _nends_with: [true, false, 'ends'],
  _iends_with: [false, true, 'ends'],
  _niends_with: [true, true, 'ends'],
};

/** One operator of match-filter.ts's `test` on the field value `v`. */
function testSql(p: SqlParams, op: string, v: string, arg: unknown): SqlTest {
  const present = { hit: `NOT ${isNullSql(v)}`, odd: 'false' };
  const rel = RELATIONS[op];
  if (rel) return arg === null ? NEVER : compareSql(p, v, arg, rel);
  switch (op) {
    case '_in':
      return any(listOf(arg).map((x) => (x === null ? NEVER : compareSql(p, v, x, '='))));
    case '_nin':
      return and(present, not(any(listOf(arg).map((x) => (x === null ? NEVER : compareSql(p, v, x, '='))))));
    case '_between':
    case '_nbetween': {
      const [lo, hi, ...rest] = listOf(arg);
      if (rest.length || lo === null || lo === undefined || hi === null || hi === undefined) throw new NotInSql();
      const inside = and(compareSql(p, v, lo, '>='), compareSql(p, v, hi, '<='));
      return and(present, op === '_between' ? inside : not(inside));
    }
    case '_null':
    case '_nnull':
      return { hit: `${flag(arg) === (op === '_null') ? '' : 'NOT '}${isNullSql(v)}`, odd: 'false' };
    case '_empty':
    case '_nempty': {
      const empty = `(${isNullSql(v)} OR ${v} = '""'::jsonb)`;
      return { hit: flag(arg) === (op === '_empty') ? empty : `NOT ${empty}`, odd: 'false' };
    }
  }
  const like = LIKE[op];
  if (!like) throw new NotInSql();
  if (arg === null || arg === undefined) return NEVER;
  const [negated, insensitive, kind] = like;
  const raw = String(arg);
  const t = insensitive ? raw.toLowerCase() : raw;
  if (LONE.test(t)) throw new NotInSql();
  // case folding in SQL is ASCII's ("C"): the same as JavaScript's for ASCII text only
  const s = insensitive ? `lower(${text(v)} COLLATE "C")` : text(v);
  const found =
    kind === 'contains'
      ? `strpos(${s}, ${p.add(t, 'text')}) > 0`
      : kind === 'starts'
        ? `starts_with(${s}, ${p.add(t, 'text')})`
        : `right(${s}, ${p.add([...t].length, 'int')}) = ${p.add(t, 'text')}`;
  return byType(v, {
    string: { hit: negated ? `NOT ${found}` : found, odd: insensitive ? `octet_length(${text(v)}) <> char_length(${text(v)})` : 'false' },
  });
}

/** The filter (`{field: {_op: value}}`, `_and`/`_or`) as one SQL test; `check(field)` throws for a field refused. */
export function filterSql(p: SqlParams, filter: unknown, ctx: ValueContext, check: (field: string) => void): SqlTest {
  if (!isObject(filter)) throw new NotInSql();
  const parts: SqlTest[] = [];
  for (const [key, cond] of Object.entries(filter)) {
    if (key === '_and' || key === '_or') {
      if (!Array.isArray(cond) || cond.length === 0) throw new NotInSql();
      const subs = cond.map((c) => filterSql(p, c, ctx, check));
      parts.push(key === '_and' ? subs.reduce(and) : any(subs));
      continue;
    }
    try {
      check(key);
    } catch {
      throw new NotInSql();
    }
    if (!isObject(cond)) throw new NotInSql();
    for (const [op, raw] of Object.entries(cond)) {
      if (!op.startsWith('_')) throw new NotInSql();
      const arg = Array.isArray(raw) ? raw.map((x) => resolveDynamic(x, ctx)) : resolveDynamic(raw, ctx);
      parts.push(testSql(p, op, p.field(key), arg));
    }
  }
  return parts.length ? parts.reduce(and) : ALWAYS;
}
