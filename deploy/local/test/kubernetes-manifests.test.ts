// The distributed topology's Kubernetes files, validated offline: deploy/kubernetes (kustomize base and overlays).
// Every variable a manifest sets must be one the service's src/config.ts reads, and the resolved environment must
// pass the service's own config loader; probe paths, ports, selectors, secrets and upstream URLs are cross-checked;
// objects are validated against the Kubernetes schemas (kubernetes-models). Overlays are built by a small kustomize
// subset (manifests/kustomize.ts), compared with `kubectl kustomize` when kubectl is installed.
// docker-compose.yml: compose-manifests.test.ts; deploy/docker/Dockerfile: dockerfile.test.ts.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { K8S, OVERLAYS, ROOT, build, byId, podSpecOf, readYaml, yamlFiles, type Obj } from './manifests/kustomize';
import { CONTAINER_FIELDS, MODELS, POD_FIELDS } from './manifests/schemas';
import { EXTERNAL_SECRETS, hasRoute, SERVICES, resolveContainer } from './manifests/service-config';
import { secretFilesForThisFile } from './manifests/secret-files';

const withSecretFiles = secretFilesForThisFile();

const built = Object.fromEntries(OVERLAYS.map((o) => [o, build(path.join(K8S, o))]));

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
        for (const c of pod.containers) expect(Object.keys(c).filter((k) => !CONTAINER_FIELDS.has(k))).toEqual([]);
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
        problems.push(`${r.service}: its config loader refuses the manifest's environment: ${(e as Error).message}`);
        continue;
      }
      expect({ service: r.service, PORT: config.PORT, HOST: config.HOST }).toEqual({
        service: r.service,
        PORT: SERVICES[r.service].port,
        HOST: '0.0.0.0',
      });
      for (const name of Object.keys(r.env)) {
        if (name in config) expect({ name, parsed: config[name] !== undefined }).toEqual({ name, parsed: true });
      }
      for (const [secret, keys] of r.secrets) {
        expect({ secret, documented: secret in EXTERNAL_SECRETS }).toEqual({ secret, documented: true });
        for (const key of keys) expect(EXTERNAL_SECRETS[secret]).toContain(key);
      }
    }
    expect(problems).toEqual([]);
  });

  it('TRUST_PROXY: the gateway believes only the proxy in front of it (the Ingress in production), the services one hop more', () => {
    const trust = Object.fromEntries(
      workloads.map((d) => {
        const r = resolveContainer(objects, d);
        return [r.service, SERVICES[r.service].load(withSecretFiles(r.env)).TRUST_PROXY];
      }),
    );
    const withIngress = objects.some((o) => o.kind === 'Ingress');
    expect(trust.gateway).toBe(withIngress ? 1 : false);
    for (const s of ['auth', 'revisions', 'items']) expect({ s, trust: trust[s] }).toEqual({ s, trust: withIngress ? 2 : 1 });
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
      expect(c.volumeMounts).toEqual(expect.arrayContaining([expect.objectContaining({ mountPath: '/tmp' })])); // a writable /tmp under a read-only root filesystem
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
        const port = typeof probe.httpGet.port === 'string' ? c.ports.find((p: Obj) => p.name === probe.httpGet.port)?.containerPort : probe.httpGet.port;
        expect(port).toBe(SERVICES[service].port);
      }
      expect(c.livenessProbe.httpGet.path).toBe('/server/ping');
      expect(c.readinessProbe.httpGet.path).toBe('/server/ready');
      expect(d.spec.selector.matchLabels).toEqual(expect.objectContaining({ 'app.kubernetes.io/name': service }));
      for (const [k, v] of Object.entries(d.spec.selector.matchLabels)) expect(d.spec.template.metadata.labels[k]).toBe(v);
    }
  });

  it('auth encrypts TOTP secrets with its own key (a Secret), not one derived from the signing key', () => {
    const auth = workloads.find((d) => d.metadata.name === 'auth')!;
    const env = podSpecOf(auth)!.containers[0].env as Obj[];
    expect(env.find((e) => e.name === 'AUTH_TFA_ENCRYPTION_KEY_FILE')?.value).toMatch(/^\/run\/secrets\//);
  });

  it('Services, PodDisruptionBudgets, HPAs and the Ingress point at what exists', () => {
    const podsMatching = (selector: Obj) =>
      objects.filter((o) => podSpecOf(o) && Object.entries(selector).every(([k, v]) => o.spec.template.metadata.labels?.[k] === v));
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
      const pdb = objects.filter((o) => o.kind === 'PodDisruptionBudget' && podsMatching(o.spec.selector.matchLabels).includes(d));
      expect({ deployment: d.metadata.name, pdbs: pdb.length }).toEqual({
        deployment: d.metadata.name,
        pdbs: 1,
      });
      expect(objects.some((o) => o.kind === 'Service' && o.metadata.name === d.metadata.name)).toBe(true);
    }
    const hpas = objects.filter((o) => o.kind === 'HorizontalPodAutoscaler');
    expect(hpas.map((h) => h.spec.scaleTargetRef.name).sort()).toEqual(['auth', 'gateway', 'revisions']);
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
if (!kubectl) console.warn("!!! kubectl not found: the overlays are built by the test's kustomize subset only (not compared with kustomize)");
(kubectl ? it : it.skip).each(OVERLAYS)("kubectl kustomize %s builds the same objects as the test's builder", (overlay) => {
  const r = spawnSync('kubectl', ['kustomize', path.join(K8S, overlay)], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const theirs = byId(parseAllDocuments(r.stdout, { version: '1.1' }).map((d) => d.toJS() as Obj));
  expect(theirs).toEqual(byId(built[overlay]));
});

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
