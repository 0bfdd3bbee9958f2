// The query planner alone, two checkouts in one process: µs per plan (planQuery + list() + count('filter'), what a
// list request with meta=filter_count asks of it), best of AB_ROUNDS interleaved rounds of AB_ITERATIONS each, for
// the planner of AB_BASE (e.g. a worktree of main with its node_modules) and of this checkout (or AB_NEW).
//   AB_BASE=/path/to/main-checkout node --import tsx bench/plan-query.bench.ts
import path from 'node:path';
import type * as QueryLib from '../libs/query/src';
import { revisionsSchema } from '../services/revisions/src/domain/query-schema';

const baseTree = process.env.AB_BASE!;
const newTree = process.env.AB_NEW ?? path.join(__dirname, '..');
const ROUNDS = Number(process.env.AB_ROUNDS ?? 15);
const ITERATIONS = Number(process.env.AB_ITERATIONS ?? 2000);
const load = (tree: string): typeof QueryLib => require(path.join(tree, 'libs/query/src'));
const libs = { base: load(baseTree), new: load(newTree) };

type Lib = typeof QueryLib;
/** Like the revisions service's restricted role: a row filter, JSON reduced in Node, read as text. */
const restricted: QueryLib.PlanOptions = {
  rowFilter: (t, alias, params) => (t.name === 'revisions' ? `${alias}."collection" = ANY(${params.add(['c0', 'c2'], 'text[]')})` : null),
  project: ({ def, expr, params }) => (def.type === 'json' ? `vellum_pick(${expr}, ${params.add('{}', 'jsonb')})` : expr),
  reduce: ({ def }) => (def.type === 'json' ? { with: ['collection'], map: (v) => v, whole: () => true } : undefined),
  jsonText: (t) => t,
};
const scenarios: { name: string; raw: Record<string, unknown>; opts?: QueryLib.PlanOptions }[] = [
  { name: 'admin list limit=25&sort=-id', raw: { limit: '25', sort: '-id' }, opts: { jsonText: (t) => t } },
  { name: 'restricted list', raw: { limit: '25', sort: '-id' }, opts: restricted },
  { name: 'filter + meta=filter_count', raw: { filter: { collection: { _eq: 'c7' } }, meta: 'filter_count', limit: '25' } },
  {
    name: 'SEARCH _or, relation sort',
    raw: { filter: { _or: [{ collection: { _eq: 'c3' } }, { activity: { user: { _eq: '$CURRENT_USER' } } }] }, sort: '-activity.timestamp', limit: '25' },
    opts: restricted,
  },
  { name: 'fields *.* + search', raw: { fields: '*.*', search: '42', limit: '25' } },
  { name: 'aggregate groupBy', raw: { aggregate: { count: '*', max: 'id' }, groupBy: 'collection,activity.action' } },
  { name: 'deep offset (deferred join)', raw: { offset: '90000', limit: '25' }, opts: { totalHint: 100_000 } },
];

function run(lib: Lib, schema: QueryLib.QuerySchema, s: (typeof scenarios)[number], n: number): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const plan = lib.planQuery(schema, 'revisions', lib.parseQuery(s.raw), { user: 'u', role: 'r', ...s.opts });
    plan.list();
    plan.count('filter');
  }
  return Number(process.hrtime.bigint() - t0) / 1000 / n;
}

// one schema object for both (defineSchema only checks and freezes it): the revisions service's
const schemas = { base: revisionsSchema, new: revisionsSchema };
console.log(
  `load average ${require('node:os')
    .loadavg()
    .map((x: number) => x.toFixed(1))
    .join(' ')}; best of ${ROUNDS} × ${ITERATIONS}`,
);
for (const s of scenarios) {
  for (const k of ['base', 'new'] as const) {
    const a = JSON.stringify(libs[k].planQuery(schemas[k], 'revisions', libs[k].parseQuery(s.raw), { user: 'u', role: 'r', ...s.opts }).list());
    const b = JSON.stringify(libs.base.planQuery(schemas.base, 'revisions', libs.base.parseQuery(s.raw), { user: 'u', role: 'r', ...s.opts }).list());
    if (a !== b) throw new Error(`${s.name}: the two planners disagree`);
    run(libs[k], schemas[k], s, ITERATIONS); // warm-up
  }
  const best = { base: Infinity, new: Infinity };
  for (let round = 0; round < ROUNDS; round++)
    for (const k of round % 2 ? (['new', 'base'] as const) : (['base', 'new'] as const)) best[k] = Math.min(best[k], run(libs[k], schemas[k], s, ITERATIONS));
  console.log(`${s.name}: base ${best.base.toFixed(2)} µs | new ${best.new.toFixed(2)} µs | new÷base ${(best.new / best.base).toFixed(2)}`);
}
