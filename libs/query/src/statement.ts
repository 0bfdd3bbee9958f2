import { errors } from '@vellum/errors';
import { col, related, ROOT, type PlanContext } from './plan-context';
import { Params } from './params';
import { fieldOf, quoteIdent as q, type FieldSchema, type TableSchema } from './schema';

interface ResolvedPath {
  /** The column expression, e.g. `j1."timestamp"`. */
  expr: string;
  def: FieldSchema;
  table: TableSchema;
  alias: string;
  field: string;
}

/**
 * One SQL statement being built: its parameters and the relations it joins (each once, under `j1`, `j2`, … in the
 * order first needed; an invisible related row — the row filter — looks like no row).
 */
export class Statement {
  readonly params = new Params();
  private readonly joins: string[] = [];
  private readonly joinAlias = new Map<string, string>();
  /** Filter nodes compiled so far (plan-filters bounds it). */
  filterNodes = 0;

  constructor(readonly ctx: PlanContext) {}

  /** The LEFT JOINs needed so far, with a leading space (or nothing). */
  joinText(): string {
    return this.joins.length ? ` ${this.joins.join(' ')}` : '';
  }

  /** The alias of relation `name` (key: its path from the root) of the row aliased `parentAlias`, joined once. */
  join(parentAlias: string, key: string, name: string, def: FieldSchema): string {
    const known = this.joinAlias.get(key);
    if (known) return known;
    const rel = related(this.ctx, def);
    const alias = `j${this.joinAlias.size + 1}`;
    this.joinAlias.set(key, alias);
    const extra = this.ctx.opts.rowFilter?.(rel, alias, this.params);
    const relPk = rel.fields[rel.primaryKey]!;
    this.joins.push(
      `LEFT JOIN ${q(rel.table)} AS ${alias} ON ${alias}.${col(rel.primaryKey, relPk)} = ${parentAlias}.${col(name, def)}` + (extra ? ` AND (${extra})` : ''),
    );
    return alias;
  }

  /** `activity.timestamp` → its expression, joining what it crosses; 403 for a field that is unknown or concealed. */
  resolve(path: string): ResolvedPath {
    const { root, maxDepth } = this.ctx;
    const segs = path.split('.');
    if (segs.length > maxDepth + 1) throw errors.invalidQuery(`Path "${segs.length}" levels deep is too deep.`);
    let table = root;
    let alias = ROOT;
    let key = '';
    for (let i = 0; i < segs.length - 1; i++) {
      const def = fieldOf(table, segs[i]!);
      if (!def || !def.relation) throw errors.forbidden();
      key = key ? `${key}.${segs[i]}` : segs[i]!;
      alias = this.join(alias, key, segs[i]!, def);
      table = related(this.ctx, def);
    }
    const field = segs[segs.length - 1]!;
    const def = fieldOf(table, field);
    if (!def || def.concealed) throw errors.forbidden();
    return { expr: `${alias}.${col(field, def)}`, def, table, alias, field };
  }

  /** A path's value as the caller may see it (`project` applied): for groups and sorts, like selected values. */
  value(path: string): { expr: string; def: FieldSchema } {
    const r = this.resolve(path);
    const project = this.ctx.opts.project;
    if (!project) return r;
    const depth = path.split('.').length - 1;
    return { expr: project({ table: r.table, field: r.field, def: r.def, expr: r.expr, alias: r.alias, depth, params: this.params }), def: r.def };
  }
}
