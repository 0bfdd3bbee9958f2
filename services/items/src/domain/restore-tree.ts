import { randomUUID } from 'node:crypto';
import { errors } from '@vellum/errors';
import { withTransaction } from '@vellum/db';
import type { Credentials, ReadRevision, RevisionsClient } from '../data/revisions-client';
import { enqueueItemChanges } from './enqueue-item-changes';
import type { ChangeContext } from './item-change';
import type { ItemsDeps } from './items-deps';
import { TreeWriter } from './nested/tree-writer';
import { checkRights, isPlan, planRow, type RestoreOutcome, type RowPlan } from './restore-plan';
import { retryOnSchemaChange } from './retry-on-schema-change';

const rowOf = (r: ReadRevision) => `${r.collection}\u0000${r.item}`;
const removes = (r: ReadRevision) => r.data === null || r.activity?.action === 'delete';

/**
 * The revisions under `root` in its write's tree (children through `parent`, recursively), as the caller may read
 * them (the revisions service leaves out those it may not: they and what hangs from them are not restored). One per
 * row, its last in the write, oldest first: the order the write made them in (a row before the rows that refer to it).
 */
export async function descendants(revisions: Pick<RevisionsClient, 'children'>, root: ReadRevision, who: Credentials, max: number): Promise<ReadRevision[]> {
  const seen = new Set([root.id]);
  const all: ReadRevision[] = [];
  for (let level = [root.id]; level.length > 0;) {
    const next = (await revisions.children(level, who)).filter((r) => !seen.has(r.id));
    for (const r of next) seen.add(r.id);
    all.push(...next);
    if (all.length > max) throw errors.invalidPayload(`A restore may change at most ${max} nested items (MAX_BATCH_MUTATION)`);
    level = next.map((r) => r.id);
  }
  const byRow = new Map<string, ReadRevision>();
  for (const r of all.sort((a, b) => a.id - b.id)) {
    if (rowOf(r) === rowOf(root)) continue;
    byRow.delete(rowOf(r));
    byRow.set(rowOf(r), r);
  }
  return [...byRow.values()].sort((a, b) => a.id - b.id);
}

/** Writes one planned row with the tree's writer, its event's parent the restore root's event. */
async function writeRow(tree: TreeWriter, p: RowPlan, parent: string): Promise<void> {
  const pk = p.def.primaryKey;
  if (p.outcome.action === 'create') await tree.create(p.def, { [pk]: p.key, ...p.values }, parent);
  else if (p.outcome.action === 'update') await tree.update(p.def, p.key, p.values, parent);
  else if (p.outcome.action === 'delete') await tree.remove(p.def, [p.current!.row], parent);
}

/**
 * Restores a revision and the rows of its tree (`nodes`, from `descendants`) in one transaction: each row re-created,
 * updated or deleted again as its revision recorded it, through the nested write path (TreeWriter: `revert`
 * events, each row's event's parent the root's, the root's written or touched). Every row is planned and its
 * rights checked before anything is written (403 names the collection, nothing applied). `dryRun`: the plan only.
 */
export async function restoreTree(deps: ItemsDeps, ctx: ChangeContext, root: ReadRevision, nodes: ReadRevision[], dryRun: boolean): Promise<RestoreOutcome> {
  const acc = ctx.accountability;
  if (!dryRun) await deps.history?.admit();
  return retryOnSchemaChange(() =>
    withTransaction(deps.pool, async (db) => {
      const top = await planRow(db, deps, acc, root, false, true);
      if (!isPlan(top)) throw errors.forbidden();
      const rows: (RowPlan | RestoreOutcome)[] = [];
      for (const n of nodes) rows.push(await planRow(db, deps, acc, n, removes(n), true));
      const plans = rows.filter(isPlan);
      for (const p of [top, ...plans]) checkRights(deps, acc, p.outcome);
      const written = plans.filter((p) => p.outcome.action !== 'none');
      if (!dryRun && (written.length > 0 || top.outcome.action !== 'none')) {
        const tree = new TreeWriter(db, deps, { ...ctx, revert: true });
        const id = randomUUID();
        const { def, key, values } = top;
        // a re-created root takes its place in the write's order (after the many-to-one rows it refers to)
        const order = top.outcome.action === 'create' ? [...written, top].sort((a, b) => a.outcome.revision - b.outcome.revision) : written;
        for (const p of order) {
          if (p === top) await tree.create(def, { [def.primaryKey]: key, ...values }, null, id);
          else await writeRow(tree, p, id);
        }
        if (top.outcome.action === 'update') await tree.update(def, key, values, null, null, id);
        else if (top.outcome.action === 'none') await tree.touch(def, key, top.current!.row, id, null);
        await enqueueItemChanges(db, tree.changes);
        for (const p of [top, ...written]) p.outcome.applied = true;
      }
      return { ...top.outcome, children: rows.map((r) => (isPlan(r) ? r.outcome : r)) };
    }),
  );
}
