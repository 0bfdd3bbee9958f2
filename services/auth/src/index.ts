export { loadAuthConfig, type AuthConfig } from './config';
export { createApp, type AuthApp, type AuthAppDeps } from './app';
export { startAuth, MIGRATIONS_DIR, type RunningAuth, type StartAuthDeps } from './start';
export { AUTH_SDL } from './graphql/subgraph';
export { authOutboxDestinations } from './events/outbox-destinations';
