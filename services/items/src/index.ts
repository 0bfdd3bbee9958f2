export { loadItemsConfig, type ItemsConfig } from './config';
export { createApp, type CreateAppDeps } from './app';
export { startItems, MIGRATIONS_DIR, type StartItemsDeps } from './start';
export { AccessRules } from './domain/access-rules';
export { createItemsPool } from './data/items-pool';
export { createPrisma } from './data/prisma';
export { CatalogueCache, CATALOGUE_CHANNEL, type CatalogueSource } from './data/catalogue-cache';
export { VersionScheduler, type VersionSchedulerOptions } from './domain/version-scheduler';
