import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '@vellum/logger';
import { databaseUrl } from '@vellum/db';
import type { LocalConfig } from '../config';
import { startDatabaseServer } from '../database-server';
import { DATABASES } from '../platform';
import { pings, supervise, type Supervised } from './child-process';
import { freePort } from '@vellum/http';
import { startNatsServer } from './nats-server';
import { StopStack } from '../stop-stack';

const ROOT = path.resolve(__dirname, '../../../..');

/** `node <bundle>` when `npm run build` produced it, else the TypeScript entry through tsx. */
function entry(folder: string): string[] {
  const dist = path.join(ROOT, folder, 'dist', 'main.js');
  return existsSync(dist) ? [dist] : ['--import', 'tsx', path.join(ROOT, folder, 'src', 'main.ts')];
}

/** What `DATA_DIR/distributed.json` holds while it runs (for operators and tests: which process is which). */
export interface DistributedState {
  pid: number;
  url: string;
  natsUrl: string;
  /** Each process: its pid, its URL, and its Prometheus metrics listener (a free port each). */
  services: Record<string, { pid?: number; url: string; metrics: string }>;
}

interface Distributed {
  url: string;
  stop(): Promise<void>;
}

/**
 * The distributed topology on one machine without containers: every service its own process (restarted when it
 * dies), against DATABASE_URL / NATS_URL when given, else an embedded PostgreSQL and a nats-server from PATH.
 */
export async function startDistributed(config: LocalConfig, logger: Logger): Promise<Distributed> {
  const stack = new StopStack(logger);
  return stack.starting(async () => {
    mkdirSync(config.dataDir, { recursive: true });
    const db = await startDatabaseServer(config, logger, Object.values(DATABASES));
    if (db.stop) stack.push({ name: 'postgres', stop: db.stop });
    const natsUrl = config.NATS_URL || (await startOwnNats(config, logger, stack));

    const state: DistributedState = { pid: process.pid, url: '', natsUrl, services: {} };
    const save = stateSaver(path.join(config.dataDir, 'distributed.json'), state);
    const base: NodeJS.ProcessEnv = {
      EMAIL_FILE_DIR: path.join(config.dataDir, 'mail'),
      AUTH_KEYS_DIR: path.join(config.dataDir, 'keys'),
      ...config.env,
      LOG_LEVEL: config.LOG_LEVEL,
      PUBLIC_URL: config.publicUrl,
      NATS_URL: natsUrl,
      HOST: '127.0.0.1',
    };
    const service = serviceStarter({ base, logger, stack, state, save });
    const gateway = await startServices(config, service, (name) => databaseUrl(db.url, DATABASES[name]));
    state.url = gateway.url;
    save();
    return { url: gateway.url, stop: stack.stopAll };
  });
}

type StartService = (name: string, folder: string, env: NodeJS.ProcessEnv, port?: number) => Promise<Supervised & { url: string }>;

/** A nats-server from PATH with its store under DATA_DIR/nats; its URL. */
async function startOwnNats(config: LocalConfig, logger: Logger, stack: StopStack): Promise<string> {
  const nats = await startNatsServer(path.join(config.dataDir, 'nats'), config.env.PATH, logger);
  stack.push({ name: 'nats-server', stop: () => nats.process.stop() });
  logger.info({ url: nats.url }, 'nats-server ready');
  return nats.url;
}

/** Writes the state whole and renames it into place: a reader never sees half a file. */
function stateSaver(stateFile: string, state: DistributedState): () => void {
  return () => (writeFileSync(`${stateFile}.tmp`, JSON.stringify(state, null, 2)), renameSync(`${stateFile}.tmp`, stateFile));
}

/** Starts one supervised service process on a free port (or the one given), with its metrics on another. */
function serviceStarter(c: { base: NodeJS.ProcessEnv; logger: Logger; stack: StopStack; state: DistributedState; save: () => void }): StartService {
  return async (name, folder, env, port) => {
    const p = port ?? (await freePort());
    const url = `http://127.0.0.1:${p}`;
    const metricsPort = await freePort();
    const metrics = `http://127.0.0.1:${metricsPort}/metrics`;
    const proc = supervise({
      name,
      command: process.execPath,
      args: entry(folder),
      cwd: ROOT,
      env: { ...c.base, ...env, PORT: String(p), METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' },
      logger: c.logger,
      ready: () => pings(url),
      onStarted: (pid) => {
        c.state.services[name] = { pid, url, metrics };
        c.save();
      },
    });
    await proc.start();
    c.stack.push({ name, stop: () => proc.stop() });
    c.logger.info({ process: name, url, pid: proc.pid() }, `${name} ready`);
    return Object.assign(proc, { url });
  };
}

/** The mailer first and stopped last; the gateway last and stopped first. Returns the gateway. */
async function startServices(config: LocalConfig, service: StartService, db: (name: keyof typeof DATABASES) => string): Promise<{ url: string }> {
  // the services trust the gateway in front of them on loopback (client addresses), as in `npm start`
  const behindGateway = { TRUST_PROXY: config.servicesTrustProxy };
  await service('mailer', 'services/mailer', {});
  const auth = await service('auth', 'services/auth', { ...behindGateway, DATABASE_URL: db('auth') });
  const revisions: string[] = [];
  for (let i = 1; i <= config.REVISIONS_REPLICAS; i++)
    revisions.push((await service(`revisions-${i}`, 'services/revisions', { ...behindGateway, DATABASE_URL: db('revisions'), AUTH_URL: auth.url })).url);
  const items = await service('items', 'services/items', { ...behindGateway, DATABASE_URL: db('items'), AUTH_URL: auth.url, REVISIONS_URL: revisions[0] });
  return service(
    'gateway',
    'gateway',
    { HOST: config.HOST, AUTH_URLS: auth.url, REVISIONS_URLS: revisions.join(','), ITEMS_URLS: items.url },
    config.PORT || undefined,
  );
}
