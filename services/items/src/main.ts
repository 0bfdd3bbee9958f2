// The items service as its own process (distributed topology): config from the environment, NATS, SIGTERM → drain.
// `main.js migrate`: the deployments' migrate step (apply, report, exit) before replicas start with MIGRATE_AT_START=false
import { runServiceProcess } from '@vellum/process';
import { loadItemsConfig, loadNatsSettings } from './config';
import { MIGRATIONS_DIR, startItems } from './start';

runServiceProcess({
  name: 'items',
  load: loadItemsConfig,
  nats: loadNatsSettings,
  start: startItems,
  migrationsDir: MIGRATIONS_DIR,
});
