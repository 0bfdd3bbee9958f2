/**
 * The planner's tests read the revisions service's schema, as that service describes it (one definition: the
 * snapshots in plan-snapshots.json are the statements revisions runs).
 */
export { revisionsSchema as schema } from '@vellum/revisions/src/domain/query-schema';
