// The services as the manifest tests see them: where their config lives, how they load it, where they listen,
// which variables their src/config.ts reads, and a container's environment resolved against a build.
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  MESSAGING_VARIABLES,
  databaseServiceVariables,
  processVariables,
  queryLimitVariables,
  rateLimiterVariables,
  sessionCookieVariables,
} from '@vellum/config';
import { loadAuthConfig, loadNatsSettings as authNats } from '@vellum/auth/src/config';
import { loadRevisionsConfig, loadNatsSettings as revisionsNats } from '@vellum/revisions/src/config';
import { loadItemsConfig, loadNatsSettings as itemsNats } from '@vellum/items/src/config';
import { loadMailerConfig, loadNatsSettings as mailerNats } from '@vellum/mailer/src/config';
import { loadGatewayConfig, loadNatsSettings as gatewayNats } from '@vellum/gateway/src/config';
import { ROOT, podSpecOf, type Env, type Obj } from './kustomize';

interface ServiceInfo {
  dir: string;
  port: number;
  /** Loads the whole configuration main.ts reads (service config + NATS), throwing like main.ts would. */
  load(env: Env): Obj;
}
/** A service whose config is its own loadConfig plus the NATS settings main.ts reads. */
const service = (dir: string, port: number, loadConfig: (env: Env) => object, loadNats: (env: Env) => unknown): ServiceInfo => ({
  dir,
  port,
  load: (env) => ({ ...loadConfig(env), nats: loadNats(env) }),
});
export const SERVICES: Record<string, ServiceInfo> = {
  auth: service('services/auth', 8056, loadAuthConfig, authNats),
  revisions: service('services/revisions', 8057, loadRevisionsConfig, revisionsNats),
  items: service('services/items', 8058, loadItemsConfig, itemsNats),
  mailer: service('services/mailer', 8059, loadMailerConfig, mailerNats),
  gateway: service('gateway', 8055, loadGatewayConfig, gatewayNats),
};

/** @vellum/config's shape pieces a service's config spreads into its own. */
const SHARED_PIECES: Record<string, object> = {
  processVariables,
  databaseServiceVariables,
  queryLimitVariables,
  rateLimiterVariables: rateLimiterVariables(true),
  sessionCookieVariables,
};

/**
 * The variables a service reads, from its src/config.ts: keys of its loadConfig shapes (these also accept
 * NAME_FILE), direct `env.NAME` reads (these do not), the messaging variables of @vellum/config's loader
 * when config.ts uses it, and the keys of @vellum/config's shared shape pieces it spreads (`...processVariables`).
 */
function configVariables(dir: string): { shape: Set<string>; direct: Set<string> } {
  const src = fs.readFileSync(path.join(ROOT, dir, 'src/config.ts'), 'utf8');
  const shape = new Set([...src.matchAll(/(?:^\s+|[{,]\s*)([A-Z][A-Z0-9_]*)\s*:/gm)].map((m) => m[1]));
  if (/\bload(Optional)?MessagingSettings\(/.test(src)) for (const v of MESSAGING_VARIABLES) shape.add(v);
  for (const [piece, variables] of Object.entries(SHARED_PIECES))
    if (new RegExp(`\\.\\.\\.${piece}\\b`).test(src)) for (const v of Object.keys(variables)) shape.add(v);
  const direct = new Set([...src.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b(?!\s*=[^=])/g)].map((m) => m[1]));
  return { shape, direct };
}
const VARIABLES = Object.fromEntries(Object.entries(SERVICES).map(([n, s]) => [n, configVariables(s.dir)]));

/** Why a variable is not one the service reads, or undefined when it is. */
export function unknownVariable(service: string, name: string): string | undefined {
  const { shape, direct } = VARIABLES[service];
  if (shape.has(name) || direct.has(name)) return undefined;
  const base = name.endsWith('_FILE') ? name.slice(0, -5) : undefined;
  if (base && shape.has(base)) return undefined;
  if (base && direct.has(base)) return `${name}: ${service} reads ${base} directly, without a _FILE variant`;
  return `${name}: not read by ${service} (${SERVICES[service].dir}/src/config.ts)`;
}

/** The routes every app gets from `serverRoutes` (libs/http): liveness, readiness, health. */
const SERVER_ROUTES = ['/server/ping', '/server/ready', '/server/health'];

/**
 * The routes a service answers for probes (its app.ts, or a module of the service app.ts imports, registers them, or
 * has serverRoutes register them).
 */
export function hasRoute(service: string, route: string): boolean {
  const app = path.join(ROOT, SERVICES[service].dir, 'src/app.ts');
  const sources = [app, ...localImports(app)].map((f) => fs.readFileSync(f, 'utf8'));
  return sources.some((src) => src.includes(`'${route}'`) || (src.includes('serverRoutes(') && SERVER_ROUTES.includes(route)));
}

/** The service's own modules a file imports (`./…`, `../…`). */
function localImports(file: string): string[] {
  const src = fs.readFileSync(file, 'utf8');
  return [...src.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) => path.join(path.dirname(file), `${m[1]}.ts`)).filter((f) => fs.existsSync(f));
}

/** A plausible value for a secret file, so that the config loader can parse it. */
function secretContent(variable: string): string {
  if (variable === 'DATABASE_URL') return 'postgres://vellum:secret@db.example.com:5432/vellum';
  if (variable === 'AUTH_PRIVATE_KEY')
    return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
      format: 'pem',
      type: 'pkcs8',
    }) as string;
  if (variable === 'AUTH_TFA_ENCRYPTION_KEY') return 'ab'.repeat(32);
  return 'a-secret-value';
}

/** The env as the container would see it, with every *_FILE path replaced by a file of that name in `dir`. */
export function withSecretFiles(env: Env, dir: string): Env {
  const out: Env = { ...env };
  for (const [k, v] of Object.entries(env)) {
    if (!k.endsWith('_FILE') || !v) continue;
    const file = path.join(dir, `${k}-${path.basename(v)}`);
    fs.writeFileSync(file, secretContent(k.slice(0, -5)));
    out[k] = file;
  }
  return out;
}

// ---- the environment of a container, resolved against the build --------------------------------------------
interface ResolvedContainer {
  service: string;
  env: Env;
  /** secret name → keys used */
  secrets: Map<string, Set<string>>;
  problems: string[];
}

export function resolveContainer(objects: Obj[], workload: Obj): ResolvedContainer {
  const pod = podSpecOf(workload)!;
  const c = pod.containers[0];
  const service = workload.metadata.name;
  const env: Env = {};
  const problems: string[] = [];
  const secrets = new Map<string, Set<string>>();
  if (c.envFrom) problems.push(`${service}: envFrom hands every key of a source to the service; name each variable instead`);
  for (const e of c.env ?? []) {
    if (env[e.name] !== undefined) problems.push(`${service}: ${e.name} set twice`);
    const why = unknownVariable(service, e.name);
    if (why) problems.push(why);
    if (e.value !== undefined) env[e.name] = String(e.value);
    else if (e.valueFrom?.configMapKeyRef) {
      const { name, key } = e.valueFrom.configMapKeyRef;
      const cm = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === name);
      if (!cm) problems.push(`${service}: ${e.name} from ConfigMap ${name}, which is not in the build`);
      else if (cm.data?.[key] === undefined) problems.push(`${service}: ${e.name} from ConfigMap ${name} key ${key}, which it lacks`);
      else env[e.name] = cm.data[key];
    } else problems.push(`${service}: ${e.name} has neither a value nor a ConfigMap key (secrets go through *_FILE)`);
    if (e.name.endsWith('_FILE')) {
      const file = env[e.name] ?? '';
      const mount = (c.volumeMounts ?? []).find((m: Obj) => file.startsWith(`${m.mountPath}/`));
      const volume = mount && (pod.volumes ?? []).find((v: Obj) => v.name === mount.name);
      if (!volume?.secret) {
        problems.push(`${service}: ${e.name}=${file} is not in a mounted Secret`);
        continue;
      }
      const rel = file.slice(mount.mountPath.length + 1);
      const item = volume.secret.items ? volume.secret.items.find((i: Obj) => i.path === rel) : { key: rel };
      if (!item) problems.push(`${service}: ${e.name}=${file}: Secret ${volume.secret.secretName} maps no key to ${rel}`);
      else {
        if (!secrets.has(volume.secret.secretName)) secrets.set(volume.secret.secretName, new Set());
        secrets.get(volume.secret.secretName)!.add(item.key);
      }
    }
  }
  for (const m of c.volumeMounts ?? []) {
    if (!(pod.volumes ?? []).some((v: Obj) => v.name === m.name)) problems.push(`${service}: volumeMount ${m.name} has no volume`);
  }
  return { service, env, secrets, problems };
}

/** Secrets the operator creates (documented in deploy/README.md), with their keys. */
export const EXTERNAL_SECRETS: Record<string, string[]> = {
  'vellum-database': ['auth', 'revisions', 'items'],
  'vellum-auth': ['admin-password', 'private-key.pem', 'tfa-encryption-key'],
  'vellum-smtp': ['password'],
};
