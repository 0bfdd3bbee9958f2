export { loadRevisionsConfig, type RevisionsConfig } from './config';
export { createApp, type RevisionsApp, type RevisionsAppDeps } from './app';
export { startRevisions, MIGRATIONS_DIR, type StartRevisionsDeps } from './start';
export { REVISIONS_SDL } from './graphql/subgraph';
export { REVISIONS_DURABLE } from './events/item-events.consumer';
