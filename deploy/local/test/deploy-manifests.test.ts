// The distributed topology's deployment files, validated offline: deploy/kubernetes (kustomize base and overlays),
// docker-compose.yml and deploy/docker/Dockerfile. Every variable a manifest sets must be one the service's
// src/config.ts reads, and the resolved environment must pass the service's own config loader; probe paths, ports,
// selectors, secrets and upstream URLs are cross-checked; objects are validated against the Kubernetes schemas
// (kubernetes-models). Overlays are built by a small kustomize subset below, compared with `kubectl kustomize`
// when kubectl is installed; the compose file is checked with `docker-compose config -q` when it is installed.
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { readYaml, type Obj } from './manifest-yaml';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { loadAuthConfig, loadNatsUrl as authNatsUrl } from '@vellum/auth/src/config';
import { loadRevisionsConfig, loadNatsUrl as revisionsNatsUrl } from '@vellum/revisions/src/config';
import { loadItemsConfig, natsUrl as itemsNatsUrl } from '@vellum/items/src/config';
import { loadMailerConfig, loadNatsSettings } from '@vellum/mailer/src/config';
import { loadGatewayConfig, natsUrl as gatewayNatsUrl } from '@vellum/gateway/src/config';

type Env = Record<string, string | undefined>;

const ROOT = path.resolve(__dirname, '../../..');
const K8S = path.join(ROOT, 'deploy/kubernetes');
const OVERLAYS = ['base', 'overlays/dev', 'overlays/production', 'overlays/dev-with-nats'];

// ---- the services: where their config lives, how they load it, where they listen -----------------------------
interface ServiceInfo {
  dir: string;
  port: number;
  /** Loads the whole configuration main.ts reads (service config + NATS), throwing like main.ts would. */
  load(env: Env): Obj;
}
const SERVICES: Record<string, ServiceInfo> = {
  auth: {
    dir: 'services/auth',
    port: 8056,
    load: (env) => ({ ...loadAuthConfig(env), NATS_URL: authNatsUrl(env) }),
  },
  revisions: {
    dir: 'services/revisions',
    port: 8057,
    load: (env) => ({ ...loadRevisionsConfig(env), NATS_URL: revisionsNatsUrl(env) }),
  },
  items: {
    dir: 'services/items',
    port: 8058,
    load: (env) => ({ ...loadItemsConfig(env), NATS_URL: itemsNatsUrl(env) }),
  },
  mailer: {
    dir: 'services/mailer',
    port: 8059,
    load: (env) => ({ ...loadMailerConfig(env), ...loadNatsSettings(env) }),
  },
  gateway: {
    dir: 'gateway',
    port: 8055,
    load: (env) => ({ ...loadGatewayConfig(env), NATS_URL: gatewayNatsUrl(env) }),
  },
};

/**
 * The variables a service reads, from its src/config.ts: keys of its loadConfig shapes (these also accept
 * NAME_FILE) and direct `env.NAME` reads (these do not).
 */
function configVariables(dir: string): { shape: Set<string>; direct: Set<string> } {
  const src = fs.readFileSync(path.join(ROOT, dir, 'src/config.ts'), 'utf8');
  const shape = new Set([...src.matchAll(/(?:^\s+|[{,]\s*)([A-Z][A-Z0-9_]*)\s*:/gm)].map((m) => m[1]));
  const direct = new Set([...src.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b(?!\s*=[^=])/g)].map((m) => m[1]));
  return { shape, direct };
}
const VARIABLES = Object.fromEntries(Object.entries(SERVICES).map(([n, s]) => [n, configVariables(s.dir)]));

/** Why a variable is not one the service reads, or undefined when it is. */
function unknownVariable(service: string, name: string): string | undefined {
  const { shape, direct } = VARIABLES[service];
  if (shape.has(name) || direct.has(name)) return undefined;
  const base = name.endsWith('_FILE') ? name.slice(0, -5) : undefined;
  if (base && shape.has(base)) return undefined;
  if (base && direct.has(base)) return `${name}: ${service} reads ${base} directly, without a _FILE variant`;
  return `${name}: not read by ${service} (${SERVICES[service].dir}/src/config.ts)`;
}

/** The routes every app gets from `serverRoutes` (libs/http): liveness, readiness, health. */
const SERVER_ROUTES = ['/server/ping', '/server/ready', '/server/health'];

/** The routes a service answers for probes (its app.ts registers them, or has serverRoutes register them). */
function hasRoute(service: string, route: string): boolean {
  const src = fs.readFileSync(path.join(ROOT, SERVICES[service].dir, 'src/app.ts'), 'utf8');
  return src.includes(`'${route}'`) || (src.includes('serverRoutes(') && SERVER_ROUTES.includes(route));
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

let tmpDir: string;
beforeAll(() => {
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vellum-manifests-'));
});
afterAll(() => fs.rmSync(tmpDir, { recursive: true, force: true }));

/** The env as the container would see it, with every *_FILE path replaced by a temporary file of that name. */
function withSecretFiles(env: Env): Env {
  const out: Env = { ...env };
  for (const [k, v] of Object.entries(env)) {
    if (!k.endsWith('_FILE') || !v) continue;
    const file = path.join(tmpDir, `${k}-${path.basename(v)}`);
    fs.writeFileSync(file, secretContent(k.slice(0, -5)));
    out[k] = file;
  }
  return out;
}

// ---- YAML ------------------------------------------------------------------------------------------------------
function yamlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? yamlFiles(p) : /\.ya?ml$/.test(e.name) ? [p] : [];
  });
}

// ---- a kustomize subset (what the overlays use; anything else is refused, never ignored) -----------------------
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  imagePullSecrets: 'name',
  topologySpreadConstraints: 'topologyKey',
};
const isMap = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Strategic merge patch: maps merge, lists with a merge key merge item by item, other lists are replaced. */
function strategicMerge(base: unknown, patch: unknown, field?: string): unknown {
  if (Array.isArray(patch)) {
    const key = field ? MERGE_KEYS[field] : undefined;
    if (!key || !Array.isArray(base)) return structuredClone(patch);
    const out = base.map((x) => structuredClone(x));
    for (const item of patch) {
      const i = out.findIndex((x) => isMap(x) && isMap(item) && x[key] === item[key]);
      if (i >= 0) out[i] = strategicMerge(out[i], item);
      else out.push(structuredClone(item));
    }
    return out;
  }
  if (isMap(patch) && isMap(base)) {
    const out: Obj = structuredClone(base);
    for (const [k, v] of Object.entries(patch)) {
      if (k.startsWith('$'))
        throw new Error(`strategic merge directive ${k} is not supported by this test's builder`);
      if (v === null) delete out[k];
      else out[k] = strategicMerge(out[k], v, k);
    }
    return out;
  }
  return structuredClone(patch);
}

const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PersistentVolume',
  'StorageClass',
]);
const podSpecOf = (o: Obj): Obj | undefined =>
  ['Deployment', 'StatefulSet'].includes(o.kind) ? o.spec?.template?.spec : undefined;

function build(dir: string): Obj[] {
  const [k] = readYaml(path.join(dir, 'kustomization.yaml'));
  const supported = new Set([
    'apiVersion',
    'kind',
    'resources',
    'namespace',
    'images',
    'replicas',
    'patches',
  ]);
  for (const key of Object.keys(k))
    if (!supported.has(key))
      throw new Error(`${dir}: kustomization field "${key}" is not supported by this test's builder`);
  let objects: Obj[] = [];
  for (const r of k.resources ?? []) {
    const p = path.resolve(dir, r);
    objects.push(...(fs.statSync(p).isDirectory() ? build(p) : readYaml(p)));
  }
  for (const p of k.patches ?? []) {
    if (Object.keys(p).some((x) => x !== 'path'))
      throw new Error(`${dir}: only { path } patches are supported by this test's builder`);
    for (const doc of readYaml(path.resolve(dir, p.path))) {
      const matches = objects.filter((o) => o.kind === doc.kind && o.metadata?.name === doc.metadata?.name);
      if (matches.length !== 1)
        throw new Error(
          `${dir}: patch ${p.path} matches ${matches.length} objects (${doc.kind}/${doc.metadata?.name})`,
        );
      objects = objects.map((o) => (o === matches[0] ? (strategicMerge(o, doc) as Obj) : o));
    }
  }
  for (const r of k.replicas ?? []) {
    const target = objects.filter(
      (o) => ['Deployment', 'StatefulSet'].includes(o.kind) && o.metadata.name === r.name,
    );
    if (target.length !== 1) throw new Error(`${dir}: replicas for unknown workload ${r.name}`);
    target[0].spec.replicas = r.count;
  }
  for (const img of k.images ?? []) {
    let used = false;
    for (const o of objects) {
      for (const c of [...(podSpecOf(o)?.containers ?? []), ...(podSpecOf(o)?.initContainers ?? [])]) {
        const [, name] = /^(.+?)(?::[^:/]+)?(?:@.+)?$/.exec(c.image) ?? [];
        if (name !== img.name) continue;
        const tag = c.image.slice(name.length);
        c.image = `${img.newName ?? name}${img.newTag !== undefined ? `:${img.newTag}` : tag}`;
        used = true;
      }
    }
    if (!used) throw new Error(`${dir}: image ${img.name} is used by no container`);
  }
  if (k.namespace)
    for (const o of objects) if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
  return objects;
}

const built = Object.fromEntries(OVERLAYS.map((o) => [o, build(path.join(K8S, o))]));

/** Lists of named items sorted, so that two builds compare independently of the order of merged list items. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) {
    const items = v.map(canonical);
    const key = ['name', 'mountPath'].find(
      (k) => items.length && items.every((x) => isMap(x) && typeof x[k] === 'string'),
    );
    return key
      ? [...items].sort((a, b) => String((a as Obj)[key]).localeCompare(String((b as Obj)[key])))
      : items;
  }
  if (isMap(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical(v[k])]),
    );
  return v;
}
const byId = (objs: Obj[]) =>
  Object.fromEntries(
    objs.map((o) => [`${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, canonical(o)]),
  );

// ---- schema validation -------------------------------------------------------------------------------------
const MODELS: Record<string, { validate(): void } & (new (o: Obj) => { validate(): void })> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/Ingress': Ingress,
} as never;

/** Fields of a container (core/v1 Container): the schemas accept unknown fields, so typos are caught here. */
const CONTAINER_FIELDS = new Set([
  'name',
  'image',
  'imagePullPolicy',
  'command',
  'args',
  'workingDir',
  'ports',
  'env',
  'envFrom',
  'resources',
  'resizePolicy',
  'restartPolicy',
  'volumeMounts',
  'volumeDevices',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
  'terminationMessagePath',
  'terminationMessagePolicy',
  'securityContext',
  'stdin',
  'stdinOnce',
  'tty',
]);
const POD_FIELDS = new Set([
  'containers',
  'initContainers',
  'volumes',
  'securityContext',
  'serviceAccountName',
  'automountServiceAccountToken',
  'terminationGracePeriodSeconds',
  'topologySpreadConstraints',
  'affinity',
  'nodeSelector',
  'tolerations',
  'imagePullSecrets',
  'priorityClassName',
  'enableServiceLinks',
]);

// ---- the environment of a container, resolved against the build --------------------------------------------
interface ResolvedContainer {
  service: string;
  env: Env;
  /** secret name → keys used */
  secrets: Map<string, Set<string>>;
  problems: string[];
}

function resolveContainer(objects: Obj[], workload: Obj): ResolvedContainer {
  const pod = podSpecOf(workload)!;
  const c = pod.containers[0];
  const service = workload.metadata.name;
  const env: Env = {};
  const problems: string[] = [];
  const secrets = new Map<string, Set<string>>();
  if (c.envFrom)
    problems.push(
      `${service}: envFrom hands every key of a source to the service; name each variable instead`,
    );
  for (const e of c.env ?? []) {
    if (env[e.name] !== undefined) problems.push(`${service}: ${e.name} set twice`);
    const why = unknownVariable(service, e.name);
    if (why) problems.push(why);
    if (e.value !== undefined) env[e.name] = String(e.value);
    else if (e.valueFrom?.configMapKeyRef) {
      const { name, key } = e.valueFrom.configMapKeyRef;
      const cm = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === name);
      if (!cm) problems.push(`${service}: ${e.name} from ConfigMap ${name}, which is not in the build`);
      else if (cm.data?.[key] === undefined)
        problems.push(`${service}: ${e.name} from ConfigMap ${name} key ${key}, which it lacks`);
      else env[e.name] = cm.data[key];
    } else
      problems.push(
        `${service}: ${e.name} has neither a value nor a ConfigMap key (secrets go through *_FILE)`,
      );
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
      if (!item)
        problems.push(
          `${service}: ${e.name}=${file}: Secret ${volume.secret.secretName} maps no key to ${rel}`,
        );
      else {
        if (!secrets.has(volume.secret.secretName)) secrets.set(volume.secret.secretName, new Set());
        secrets.get(volume.secret.secretName)!.add(item.key);
      }
    }
  }
  for (const m of c.volumeMounts ?? []) {
    if (!(pod.volumes ?? []).some((v: Obj) => v.name === m.name))
      problems.push(`${service}: volumeMount ${m.name} has no volume`);
  }
  return { service, env, secrets, problems };
}

/** Secrets the operator creates (documented in deploy/README.md), with their keys. */
const EXTERNAL_SECRETS: Record<string, string[]> = {
  'vellum-database': ['auth', 'revisions', 'items'],
  'vellum-auth': ['admin-password', 'private-key.pem', 'tfa-encryption-key'],
  'vellum-smtp': ['password'],
};

describe.each(OVERLAYS)('kubernetes %s', (overlay) => {
  const objects = built[overlay];
  const workloads = objects.filter((o) => o.kind === 'Deployment');

  it('has a Deployment for every service and only valid objects (kubernetes-models schemas)', () => {
    expect(workloads.map((d) => d.metadata.name).sort()).toEqual(Object.keys(SERVICES).sort());
    for (const o of objects) {
      const Model = MODELS[`${o.apiVersion}/${o.kind}`];
      expect({ id: `${o.apiVersion}/${o.kind}/${o.metadata?.name}`, known: Boolean(Model) }).toEqual({
        id: expect.any(String),
        known: true,
      });
      expect(() => new Model(o).validate()).not.toThrow();
      const pod = podSpecOf(o);
      if (pod) {
        expect(Object.keys(pod).filter((k) => !POD_FIELDS.has(k))).toEqual([]);
        for (const c of pod.containers)
          expect(Object.keys(c).filter((k) => !CONTAINER_FIELDS.has(k))).toEqual([]);
      }
      if (overlay !== 'base') expect(o.metadata.namespace).toEqual(expect.any(String));
    }
  });

  it('sets only variables the services read, and each service accepts the resulting configuration', () => {
    const problems: string[] = [];
    for (const d of workloads) {
      const r = resolveContainer(objects, d);
      problems.push(...r.problems);
      let config: Obj | undefined;
      try {
        config = SERVICES[r.service].load(withSecretFiles(r.env));
      } catch (e) {
        problems.push(
          `${r.service}: its config loader refuses the manifest's environment: ${(e as Error).message}`,
        );
        continue;
      }
      expect({ service: r.service, PORT: config.PORT, HOST: config.HOST }).toEqual({
        service: r.service,
        PORT: SERVICES[r.service].port,
        HOST: '0.0.0.0',
      });
      for (const name of Object.keys(r.env)) {
        if (name in config)
          expect({ name, parsed: config[name] !== undefined }).toEqual({ name, parsed: true });
      }
      for (const [secret, keys] of r.secrets) {
        expect({ secret, documented: secret in EXTERNAL_SECRETS }).toEqual({ secret, documented: true });
        for (const key of keys) expect(EXTERNAL_SECRETS[secret]).toContain(key);
      }
    }
    expect(problems).toEqual([]);
  });

  it('probes real routes on the port the service listens on; pods run as non-root with read-only roots and limits', () => {
    for (const d of workloads) {
      const service = d.metadata.name;
      const pod = podSpecOf(d)!;
      const c = pod.containers[0];
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true });
      expect(c.securityContext).toMatchObject({
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      });
      expect(c.resources).toMatchObject({
        requests: { cpu: expect.anything(), memory: expect.anything() },
        limits: { memory: expect.anything() },
      });
      // the public port, and the metrics listener (METRICS_PORT), announced to Prometheus by the pod annotations
      const metricsPort = SERVICES[service].load(withSecretFiles(resolveContainer(objects, d).env)).METRICS_PORT;
      expect(c.ports).toEqual([
        expect.objectContaining({ name: 'http', containerPort: SERVICES[service].port }),
        expect.objectContaining({ name: 'metrics', containerPort: metricsPort }),
      ]);
      expect(d.spec.template.metadata.annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(metricsPort),
        'prometheus.io/path': '/metrics',
      });
      expect(c.volumeMounts).toEqual(
        expect.arrayContaining([expect.objectContaining({ mountPath: '/tmp' })]),
      ); // a writable /tmp under a read-only root filesystem
      for (const kind of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
        const probe = c[kind];
        expect({ service, kind, path: probe?.httpGet?.path }).toEqual({
          service,
          kind,
          path: expect.stringMatching(/^\/server\/(ready|ping)$/),
        });
        expect({ service, kind, route: hasRoute(service, probe.httpGet.path) }).toEqual({
          service,
          kind,
          route: true,
        });
        const port =
          typeof probe.httpGet.port === 'string'
            ? c.ports.find((p: Obj) => p.name === probe.httpGet.port)?.containerPort
            : probe.httpGet.port;
        expect(port).toBe(SERVICES[service].port);
      }
      expect(c.livenessProbe.httpGet.path).toBe('/server/ping');
      expect(c.readinessProbe.httpGet.path).toBe('/server/ready');
      expect(d.spec.selector.matchLabels).toEqual(
        expect.objectContaining({ 'app.kubernetes.io/name': service }),
      );
      for (const [k, v] of Object.entries(d.spec.selector.matchLabels))
        expect(d.spec.template.metadata.labels[k]).toBe(v);
    }
  });

  it('auth encrypts TOTP secrets with its own key (a Secret), not one derived from the signing key', () => {
    const auth = workloads.find((d) => d.metadata.name === 'auth')!;
    const env = podSpecOf(auth)!.containers[0].env as Obj[];
    expect(env.find((e) => e.name === 'AUTH_TFA_ENCRYPTION_KEY_FILE')?.value).toMatch(/^\/run\/secrets\//);
  });

  it('Services, PodDisruptionBudgets, HPAs and the Ingress point at what exists', () => {
    const podsMatching = (selector: Obj) =>
      objects.filter(
        (o) =>
          podSpecOf(o) &&
          Object.entries(selector).every(([k, v]) => o.spec.template.metadata.labels?.[k] === v),
      );
    for (const s of objects.filter((o) => o.kind === 'Service')) {
      const [w] = podsMatching(s.spec.selector);
      expect({ service: s.metadata.name, selects: podsMatching(s.spec.selector).length }).toEqual({
        service: s.metadata.name,
        selects: 1,
      });
      const names = podSpecOf(w)!.containers.flatMap((c: Obj) => (c.ports ?? []).map((p: Obj) => p.name));
      for (const p of s.spec.ports) expect(names).toContain(p.targetPort);
    }
    for (const d of workloads) {
      const pdb = objects.filter(
        (o) => o.kind === 'PodDisruptionBudget' && podsMatching(o.spec.selector.matchLabels).includes(d),
      );
      expect({ deployment: d.metadata.name, pdbs: pdb.length }).toEqual({
        deployment: d.metadata.name,
        pdbs: 1,
      });
      expect(objects.some((o) => o.kind === 'Service' && o.metadata.name === d.metadata.name)).toBe(true);
    }
    const hpas = objects.filter((o) => o.kind === 'HorizontalPodAutoscaler');
    expect(hpas.map((h) => h.spec.scaleTargetRef.name).sort()).toEqual(['gateway', 'revisions']);
    for (const h of hpas) expect(workloads.map((d) => d.metadata.name)).toContain(h.spec.scaleTargetRef.name);
    for (const ing of objects.filter((o) => o.kind === 'Ingress')) {
      for (const rule of ing.spec.rules)
        for (const p of rule.http.paths) {
          const svc = objects.find((o) => o.kind === 'Service' && o.metadata.name === p.backend.service.name);
          expect(svc?.spec.ports.map((x: Obj) => x.name)).toContain(p.backend.service.port.name);
        }
    }
  });

  it('internal URLs name Services and ports of the build (external NATS/Redis excepted)', () => {
    const cm = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'vellum-config')!;
    for (const key of ['AUTH_URL', 'REVISIONS_URL', 'ITEMS_URL', 'NATS_URL', 'REDIS_URL']) {
      const url = new URL(cm.data[key]);
      if (url.hostname.includes('.')) continue; // another namespace or outside the cluster (documented as external)
      const svc = objects.find((o) => o.kind === 'Service' && o.metadata.name === url.hostname);
      expect({ key, service: svc?.metadata.name }).toEqual({ key, service: url.hostname });
      expect((svc?.spec.ports ?? []).map((p: Obj) => String(p.port))).toContain(url.port);
    }
  });
});

const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
if (!kubectl)
  console.warn(
    "!!! kubectl not found: the overlays are built by the test's kustomize subset only (not compared with kustomize)",
  );
(kubectl ? it : it.skip).each(OVERLAYS)(
  "kubectl kustomize %s builds the same objects as the test's builder",
  (overlay) => {
    const r = spawnSync('kubectl', ['kustomize', path.join(K8S, overlay)], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const theirs = byId(parseAllDocuments(r.stdout, { version: '1.1' }).map((d) => d.toJS() as Obj));
    expect(theirs).toEqual(byId(built[overlay]));
  },
);

it('every YAML file under deploy/kubernetes parses and is part of some build', () => {
  const files = yamlFiles(K8S);
  expect(files.length).toBeGreaterThan(10);
  const referenced = new Set<string>();
  const walk = (dir: string) => {
    referenced.add(path.join(dir, 'kustomization.yaml'));
    const [k] = readYaml(path.join(dir, 'kustomization.yaml'));
    for (const r of k.resources ?? []) {
      const p = path.resolve(dir, r);
      if (fs.statSync(p).isDirectory()) walk(p);
      else referenced.add(p);
    }
    for (const p of k.patches ?? []) referenced.add(path.resolve(dir, p.path));
  };
  OVERLAYS.forEach((o) => walk(path.join(K8S, o)));
  for (const f of files) {
    expect(() => readYaml(f)).not.toThrow();
    expect({ file: path.relative(ROOT, f), referenced: referenced.has(f) }).toEqual({
      file: path.relative(ROOT, f),
      referenced: true,
    });
  }
});

it('deploy/README.md documents every external Secret and key', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'deploy/README.md'), 'utf8');
  for (const [secret, keys] of Object.entries(EXTERNAL_SECRETS)) {
    expect(readme).toContain(secret);
    for (const key of keys) expect(readme).toContain(key);
  }
});

// ---- docker-compose.yml ----------------------------------------------------------------------------------------
describe('docker-compose.yml', () => {
  const file = path.join(ROOT, 'docker-compose.yml');
  const [compose] = readYaml(file);
  /** ${VAR:-default} / ${VAR-default} / ${VAR} with no variable set (the defaults a workstation gets). */
  const interpolate = (v: string) => v.replace(/\$\{([A-Z0-9_]+)(?::?-([^}]*))?\}/g, (_m, _n, d) => d ?? '');
  const vellum = Object.entries(compose.services as Record<string, Obj>).filter(([, s]) => s.build?.target);
  const serviceOf = (s: Obj) => s.build.target as string;

  const dockerCompose = spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0;
  if (!dockerCompose)
    console.warn(
      '!!! docker-compose not found (apt-get install --no-install-recommends docker-compose): `config -q` not run',
    );
  (dockerCompose ? it : it.skip)('docker-compose config -q accepts it', () => {
    const r = spawnSync('docker-compose', ['-f', file, 'config', '-q'], { encoding: 'utf8', cwd: ROOT });
    expect(r.stderr.trim()).toBe('');
    expect(r.status).toBe(0);
  });

  it('runs every service (revisions twice) from the Dockerfile targets, with infrastructure', () => {
    expect(vellum.map(([, s]) => serviceOf(s)).sort()).toEqual([
      'auth',
      'gateway',
      'items',
      'mailer',
      'revisions',
      'revisions',
    ]);
    for (const infra of ['postgres', 'nats', 'redis', 'mailpit'])
      expect(compose.services[infra]).toBeDefined();
    expect(compose.services.postgres.image).toMatch(/^postgres:15/);
    expect(compose.services.nats.command).toContain('-js');
    expect(compose.services.gateway.ports.map(String)).toEqual([expect.stringMatching(/:8055$/)]);
  });

  it('sets only variables the services read, which their config loaders accept', () => {
    const problems: string[] = [];
    const databases = [
      ...fs
        .readFileSync(path.join(ROOT, 'deploy/docker/postgres/01-databases.sql'), 'utf8')
        .matchAll(/CREATE DATABASE (\w+)/g),
    ].map((m) => m[1]);
    for (const [name, s] of vellum) {
      const service = serviceOf(s);
      const env: Env = Object.fromEntries(
        Object.entries(s.environment as Obj).map(([k, v]) => [k, interpolate(String(v))]),
      );
      for (const k of Object.keys(env)) {
        const why = unknownVariable(service, k);
        if (why) problems.push(`${name}: ${why}`);
        if (k.endsWith('_FILE')) {
          const secret = /^\/run\/secrets\/([\w-]+)$/.exec(env[k]!)?.[1];
          if (!secret || !(s.secrets ?? []).includes(secret) || !compose.secrets?.[secret])
            problems.push(`${name}: ${k}=${env[k]} is not a secret of the service`);
        }
      }
      if (env.DATABASE_URL) {
        const db = new URL(env.DATABASE_URL).pathname.slice(1);
        if (!databases.includes(db))
          problems.push(`${name}: database ${db} is not created by deploy/docker/postgres`);
      }
      for (const k of ['AUTH_URL', 'AUTH_URLS', 'REVISIONS_URLS', 'ITEMS_URLS', 'NATS_URL', 'REDIS_URL']) {
        for (const u of env[k]?.split(',') ?? []) {
          const url = new URL(u);
          const target = compose.services[url.hostname];
          if (!target) problems.push(`${name}: ${k} names ${url.hostname}, not a compose service`);
          else if (target.build?.target && String(SERVICES[serviceOf(target)].port) !== url.port)
            problems.push(`${name}: ${k} port ${url.port} is not where ${url.hostname} listens`);
          if (target && !s.depends_on?.[url.hostname])
            problems.push(`${name}: uses ${url.hostname} without depends_on`);
        }
      }
      for (const dep of Object.keys(s.depends_on ?? {}))
        if (!compose.services[dep]) problems.push(`${name}: depends on unknown ${dep}`);
      try {
        const config = SERVICES[service].load(withSecretFiles(env));
        expect({ name, PORT: config.PORT, HOST: config.HOST }).toEqual({
          name,
          PORT: SERVICES[service].port,
          HOST: '0.0.0.0',
        });
      } catch (e) {
        problems.push(`${name}: its config loader refuses the environment: ${(e as Error).message}`);
      }
      expect(s.healthcheck.test.join(' ')).toContain('/server/ping');
    }
    expect(problems).toEqual([]);
    expect(compose.services.gateway.environment.REVISIONS_URLS.split(',')).toHaveLength(2);
  });

  it('auth encrypts TOTP secrets with its own key (a compose secret)', () => {
    expect(compose.services.auth.environment.AUTH_TFA_ENCRYPTION_KEY_FILE).toBe('/run/secrets/auth_tfa_encryption_key');
    expect(compose.services.auth.secrets).toContain('auth_tfa_encryption_key');
  });

  it('the secrets are the files deploy/docker/init-secrets.sh writes', () => {
    const script = fs.readFileSync(path.join(ROOT, 'deploy/docker/init-secrets.sh'), 'utf8');
    for (const [, s] of Object.entries(compose.secrets as Record<string, Obj>)) {
      expect(s.file).toMatch(/^\.\/deploy\/docker\/secrets\//);
      expect(script).toContain(`$dir/${path.basename(s.file)}`);
    }
  });
});

// ---- deploy/docker/Dockerfile --------------------------------------------------------------------------------
describe('deploy/docker/Dockerfile', () => {
  const text = fs.readFileSync(path.join(ROOT, 'deploy/docker/Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const stages = new Map<string, string[]>();
  let current = '';
  for (const line of text.split('\n')) {
    const from = /^FROM\s+\S+(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) stages.set((current = from[1] ?? `#${stages.size}`), []);
    else if (current && line.trim() && !line.startsWith('#')) stages.get(current)!.push(line.trim());
  }

  it.each(Object.keys(SERVICES))(
    'target %s runs the compiled service (node dist/main.js) from its own runtime tree, on its port',
    (service) => {
      const lines = stages.get(service)!;
      expect(lines).toBeDefined();
      expect(lines).toContain(`ENV PORT=${SERVICES[service].port}`);
      const dir = SERVICES[service].dir;
      expect(lines).toContain(`COPY --from=build --chown=root:root /images/${path.basename(dir)} /app`);
      const cmd = JSON.parse(lines.find((l) => l.startsWith('CMD '))!.slice(4)) as string[];
      expect(cmd).toEqual(['node', `${dir}/dist/main.js`]);
      // the bundle is one of those `npm run build` emits
      expect(fs.readFileSync(path.join(ROOT, 'scripts/build.mjs'), 'utf8')).toContain(`'${dir}/dist/main.js'`);
    },
  );

  it('the runtime stage: Node 22+, non-root user, tini, a /server/ping health check; the build stage: npm ci, build, one tree per service', () => {
    expect(text).toMatch(/^ARG NODE_IMAGE=node:(22|24)[-.\w]*$/m);
    const runtime = stages.get('runtime')!.join('\n');
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toContain('ENTRYPOINT ["/usr/bin/tini", "--"]');
    expect(runtime).toMatch(/HEALTHCHECK .*\/server\/ping/);
    const build = stages.get('build')!.join('\n');
    expect(build).toMatch(/RUN npm ci /); // its postinstall generates the Prisma clients
    expect(build).not.toMatch(/npm install --no/);
    expect(build).toMatch(/npm run build/);
    for (const service of Object.keys(SERVICES)) expect(build).toContain(SERVICES[service].dir.replace(/^\.\//, ''));
    expect(build).toMatch(/node scripts\/assemble-image\.mjs "\$s" "\/images\/\$\(basename "\$s"\)"/);
    const ignore = fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const p of ['node_modules', '.git', 'deploy/docker/secrets', 'data']) expect(ignore).toContain(p);
  });
});
