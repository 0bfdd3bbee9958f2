// The auth service as its own process (distributed topology): config from the environment, NATS, SIGTERM → drain.
// `main.js migrate`: the deployments' migrate step (apply, report, exit) before replicas start with MIGRATE_AT_START=false
import { ConfigError } from '@vellum/config';
import { runServiceProcess } from '@vellum/process';
import { loadAuthConfig, loadNatsSettings } from './config';
import { MIGRATIONS_DIR, startAuth } from './start';

runServiceProcess({
  name: 'auth',
  load: loadAuthConfig,
  nats: loadNatsSettings,
  start: startAuth,
  migrationsDir: MIGRATIONS_DIR,
  // Outside the embedded topology the signing key is a secret with no default: an in-memory key would differ
  // per replica and die with the process.
  check: (config) => {
    if (!config.AUTH_PRIVATE_KEY && !config.AUTH_KEYS_DIR) {
      throw new ConfigError(['AUTH_PRIVATE_KEY: is required (or AUTH_PRIVATE_KEY_FILE, or AUTH_KEYS_DIR to keep a generated key)']);
    }
  },
});
