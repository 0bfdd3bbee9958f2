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

export interface Distributed {
  url: string;
  stop(): Promise<void>;
}

/**
 * The distributed topology on one machine without containers: every service its own process (restarted when it
 * dies), against DATABASE_URL / NATS_URL when given, else an embedded PostgreSQL and a nats-server from PATH.
 */
export async function startDistributed(config: LocalConfig, logger: Logger): Promise<Distributed> {
  const stack: { name: string; stop(): Promise<void> }[] = [];
  const stopAll = async () => {
    for (const s of stack.reverse()) await s.stop().catch((err) => logger.error({ err }, `stopping ${s.name} failed`));
  };
  try {
    mkdirSync(config.dataDir, { recursive: true });
    const db = await startDatabaseServer(config, logger, Object.values(DATABASES));
    if (db.stop) stack.push({ name: 'postgres', stop: db.stop });
    let natsUrl = config.NATS_URL;
    if (!natsUrl) {
      const nats = await startNatsServer(path.join(config.dataDir, 'nats'), config.env.PATH, logger);
      stack.push({ name: 'nats-server', stop: () => nats.process.stop() });
      natsUrl = nats.url;
      logger.info({ url: natsUrl }, 'nats-server ready');
    }

    const state: DistributedState = { pid: process.pid, url: '', natsUrl, services: {} };
    const stateFile = path.join(config.dataDir, 'distributed.json');
    // written whole and renamed into place: a reader never sees half a file
    const save = () => (writeFileSync(`${stateFile}.tmp`, JSON.stringify(state, null, 2)), renameSync(`${stateFile}.tmp`, stateFile));
    const base: NodeJS.ProcessEnv = {
      EMAIL_FILE_DIR: path.join(config.dataDir, 'mail'),
      AUTH_KEYS_DIR: path.join(config.dataDir, 'keys'),
      ...config.env,
      LOG_LEVEL: config.LOG_LEVEL,
      PUBLIC_URL: config.publicUrl,
      NATS_URL: natsUrl,
      HOST: '127.0.0.1',
    };
    const service = async (name: string, folder: string, env: NodeJS.ProcessEnv, port?: number): Promise<Supervised & { url: string }> => {
      const p = port ?? (await freePort());
      const url = `http://127.0.0.1:${p}`;
      const metricsPort = await freePort();
      const metrics = `http://127.0.0.1:${metricsPort}/metrics`;
      const proc = supervise({
        name,
        command: process.execPath,
        args: entry(folder),
        cwd: ROOT,
        env: { ...base, ...env, PORT: String(p), METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' },
        logger,
        ready: () => pings(url),
        onStarted: (pid) => {
          state.services[name] = { pid, url, metrics };
          save();
        },
      });
      await proc.start();
      stack.push({ name, stop: () => proc.stop() });
      logger.info({ process: name, url, pid: proc.pid() }, `${name} ready`);
      return Object.assign(proc, { url });
    };

    // the services trust the gateway in front of them on loopback (client addresses), as in `npm start`
    const behindGateway = { TRUST_PROXY: config.servicesTrustProxy };
    // The mailer first and stopped last; the gateway last and stopped first.
    await service('mailer', 'services/mailer', {});
    const auth = await service('auth', 'services/auth', { ...behindGateway, DATABASE_URL: databaseUrl(db.url, DATABASES.auth) });
    const revisions: string[] = [];
    for (let i = 1; i <= config.REVISIONS_REPLICAS; i++)
      revisions.push(
        (await service(`revisions-${i}`, 'services/revisions', { ...behindGateway, DATABASE_URL: databaseUrl(db.url, DATABASES.revisions), AUTH_URL: auth.url })).url,
      );
    const items = await service('items', 'services/items', { ...behindGateway, DATABASE_URL: databaseUrl(db.url, DATABASES.items), AUTH_URL: auth.url });
    const gateway = await service(
      'gateway',
      'gateway',
      { HOST: config.HOST, AUTH_URLS: auth.url, REVISIONS_URLS: revisions.join(','), ITEMS_URLS: items.url },
      config.PORT || undefined,
    );
    state.url = gateway.url;
    save();
    return { url: gateway.url, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
