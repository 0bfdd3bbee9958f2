import { errors } from '@vellum/errors';
import { withTransaction } from '@vellum/db';
import type { Credentials, RevisionsClient } from '../data/revisions-client';
import { createItems } from './create-items.use-case';
import type { ChangeContext } from './item-change';
import type { ItemsDeps } from './items-deps';
import { checkRights, isPlan, planRow, type RestoreOutcome } from './restore-plan';
import { descendants, restoreTree } from './restore-tree';
import { retryOnSchemaChange } from './retry-on-schema-change';
import { updateItems } from './update-items.use-case';

/** Where a restore reads its revision and its tree (the revisions service, with the caller's credentials). */
export type RevisionSource = Pick<RevisionsClient, 'revision' | 'children'>;
export type { Credentials };
export type { RestoreOutcome, Skipped } from './restore-plan';

/**
 * POST /revisions/:id/restore: writes the item back to that revision's state (see planRow), recorded as `revert`.
 * A revision without children: through the normal write path (one update, or a create when the item was deleted
 * since). With children (a nested write): the whole tree, in one transaction (restoreTree). Needs the rights of
 * every write: otherwise 403 naming the collection, nothing applied. `dryRun`: the outcome, no write.
 */
export async function restoreRevision(
  deps: ItemsDeps,
  ctx: ChangeContext,
  revisions: RevisionSource,
  revisionId: string,
  who: Credentials,
  dryRun: boolean,
): Promise<RestoreOutcome> {
  const rev = await revisions.revision(revisionId, who);
  if (rev.data === null || rev.activity?.action === 'delete') {
    throw errors.invalidPayload('This revision records a deletion: restore the revision before it.');
  }
  const nodes = await descendants(revisions, rev, who, deps.maxBatchMutation ?? 1000);
  if (nodes.length > 0) return restoreTree(deps, ctx, rev, nodes, dryRun);

  // planned on the definition kept in memory; again on a fresh one when a field change made it stale meanwhile
  const plan = await retryOnSchemaChange(() => withTransaction(deps.pool, (db) => planRow(db, deps, ctx.accountability, rev, false)));
  if (!isPlan(plan)) throw errors.forbidden();
  const { outcome, def, key, values, current } = plan;
  checkRights(deps, ctx.accountability, outcome);
  const answer = { ...outcome, children: [] };
  if (dryRun || outcome.action === 'none') return answer;
  const write = { ...ctx, revert: true };
  if (outcome.action === 'create') await createItems(deps, write, rev.collection, { [def.primaryKey]: key, ...values });
  else await updateItems(deps, write, rev.collection, [{ key, data: values }], [current!.version]);
  return { ...answer, applied: true };
}
