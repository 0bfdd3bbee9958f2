// Kubernetes hardening, checked offline on every build of deploy/kubernetes: the migrate step runs once per rollout
// as an init container (replicas only check the schema), NetworkPolicies let through exactly the traffic the
// platform needs (evaluated here with the NetworkPolicy semantics: a pod selected by a policy of a direction only
// gets what some rule of that direction allows), auth scales on CPU like the gateway and revisions.
import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
import { K8S, OVERLAYS, build, podSpecOf, type Obj } from './manifests/kustomize';
import { CONTAINER_FIELDS } from './manifests/schemas';
import { SERVICES, resolveContainer, withSecretFiles } from './manifests/service-config';
import { loadAuthConfig } from '@vellum/auth/src/config';
import { loadItemsConfig } from '@vellum/items/src/config';
import { loadRevisionsConfig } from '@vellum/revisions/src/config';

const MIGRATED: Record<string, (env: Record<string, string | undefined>) => Obj> = {
  auth: loadAuthConfig,
  revisions: loadRevisionsConfig,
  items: loadItemsConfig,
};

// ---- NetworkPolicy semantics -------------------------------------------------------------------------------
interface Endpoint {
  namespace: string;
  labels: Record<string, string>;
}
/** Outside the cluster (a database, an SMTP relay, an OAuth provider): matched only by rules without `to`/`from` peers or by ipBlock. */
const EXTERNAL = { namespace: '', labels: {} } as Endpoint;

function selects(selector: Obj | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = e.key in labels;
    if (e.operator === 'In' && !(has && e.values.includes(labels[e.key]))) return false;
    if (e.operator === 'NotIn' && has && e.values.includes(labels[e.key])) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}
function peerMatches(peer: Obj, policyNs: string, other: Endpoint): boolean {
  if (peer.ipBlock) return other === EXTERNAL;
  if (other === EXTERNAL) return false;
  if (peer.namespaceSelector) {
    const nsLabels = { 'kubernetes.io/metadata.name': other.namespace };
    return selects(peer.namespaceSelector, nsLabels) && selects(peer.podSelector, other.labels);
  }
  return other.namespace === policyNs && selects(peer.podSelector, other.labels);
}
function ruleAllows(rule: Obj, peers: Obj[] | undefined, policyNs: string, other: Endpoint, port: number): boolean {
  const portOk = !rule.ports || rule.ports.some((p: Obj) => p.port === port || (p.endPort && port >= p.port && port <= p.endPort));
  const peerOk = !peers || peers.length === 0 || peers.some((p) => peerMatches(p, policyNs, other));
  return portOk && peerOk;
}
function directionAllows(policies: Obj[], pod: Endpoint, dir: 'Ingress' | 'Egress', other: Endpoint, port: number): boolean {
  const mine = policies.filter(
    (p) => (p.metadata.namespace ?? 'default') === pod.namespace && selects(p.spec.podSelector, pod.labels) && p.spec.policyTypes.includes(dir),
  );
  if (mine.length === 0) return true;
  return mine.some((p) =>
    (p.spec[dir === 'Ingress' ? 'ingress' : 'egress'] ?? []).some((r: Obj) =>
      ruleAllows(r, dir === 'Ingress' ? r.from : r.to, p.metadata.namespace ?? 'default', other, port),
    ),
  );
}
/** Is a TCP/UDP connection from → to:port allowed? (Both ends' policies; the outside has none.) */
function allowed(policies: Obj[], from: Endpoint, to: Endpoint, port: number): boolean {
  const out = from === EXTERNAL || directionAllows(policies, from, 'Egress', to, port);
  const inn = to === EXTERNAL || directionAllows(policies, to, 'Ingress', from, port);
  return out && inn;
}

describe.each(OVERLAYS)('kubernetes %s', (overlay) => {
  const objects = build(path.join(K8S, overlay));
  const ns = objects.find((o) => o.kind === 'Deployment')!.metadata.namespace ?? 'default';
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const pod = (name: string): Endpoint => {
    const w = objects.find((o) => podSpecOf(o) && o.metadata.name === name);
    if (!w) throw new Error(`no workload ${name}`);
    return { namespace: ns, labels: w.spec.template.metadata.labels };
  };
  const natsInNamespace = objects.some((o) => o.kind === 'StatefulSet' && o.metadata.name === 'nats');
  const nats: Endpoint = natsInNamespace ? pod('nats') : { namespace: 'nats', labels: { app: 'nats' } };
  const ingressController: Endpoint = {
    namespace: 'ingress-nginx',
    labels: { 'app.kubernetes.io/name': 'ingress-nginx' },
  };
  const stranger: Endpoint = { namespace: ns, labels: { app: 'something-else' } };
  const dns: Endpoint = { namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } };
  const services = Object.keys(SERVICES);

  it('default deny in both directions for every pod of the namespace', () => {
    expect(policies.some((p) => Object.keys(p.spec.podSelector).length === 0 && ['Ingress', 'Egress'].every((t) => p.spec.policyTypes.includes(t)))).toBe(true);
    for (const name of services) {
      expect({ name, from: allowed(policies, stranger, pod(name), SERVICES[name].port) }).toEqual({
        name,
        from: false,
      });
      expect({ name, anywhere: allowed(policies, pod(name), EXTERNAL, 8080) }).toEqual({
        name,
        anywhere: false,
      });
    }
  });

  it('only the ingress controller reaches the gateway; only the gateway reaches the services (and revisions, items reach auth for its keys)', () => {
    expect(allowed(policies, ingressController, pod('gateway'), 8055)).toBe(true);
    for (const s of ['auth', 'revisions', 'items', 'mailer'])
      expect({ s, ok: allowed(policies, ingressController, pod(s), SERVICES[s].port) }).toEqual({
        s,
        ok: false,
      });
    for (const s of ['auth', 'revisions', 'items']) expect({ s, ok: allowed(policies, pod('gateway'), pod(s), SERVICES[s].port) }).toEqual({ s, ok: true });
    expect(allowed(policies, pod('revisions'), pod('auth'), 8056)).toBe(true);
    expect(allowed(policies, pod('items'), pod('auth'), 8056)).toBe(true);
    expect(allowed(policies, pod('items'), pod('revisions'), 8057)).toBe(false);
    expect(allowed(policies, pod('revisions'), pod('items'), 8058)).toBe(false);
    expect(allowed(policies, pod('mailer'), pod('auth'), 8056)).toBe(false);
    expect(allowed(policies, pod('gateway'), pod('mailer'), 8059)).toBe(false);
  });

  it('only the owners reach PostgreSQL; every service and nothing else reaches NATS; DNS for all; SMTP for the mailer, HTTPS for auth', () => {
    for (const s of services) {
      expect({ s, db: allowed(policies, pod(s), EXTERNAL, 5432) }).toEqual({ s, db: s in MIGRATED });
      expect({ s, nats: allowed(policies, pod(s), nats, 4222) }).toEqual({ s, nats: true });
      expect({ s, dns: allowed(policies, pod(s), dns, 53) }).toEqual({ s, dns: true });
      expect({ s, smtp: allowed(policies, pod(s), EXTERNAL, 587) }).toEqual({ s, smtp: s === 'mailer' });
      expect({ s, https: allowed(policies, pod(s), EXTERNAL, 443) }).toEqual({ s, https: s === 'auth' });
    }
    if (natsInNamespace) expect(allowed(policies, stranger, nats, 4222)).toBe(false);
  });

  it('migrations run once per rollout in a migrate init container; the replicas only check the schema', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vellum-hardening-'));
    try {
      for (const d of objects.filter((o) => o.kind === 'Deployment')) {
        const name = d.metadata.name as string;
        const spec = podSpecOf(d)!;
        const main = spec.containers[0];
        if (!(name in MIGRATED)) {
          expect({ name, init: spec.initContainers }).toEqual({ name, init: undefined });
          continue;
        }
        const init = spec.initContainers?.find((c: Obj) => c.name === 'migrate');
        expect({ name, init: Boolean(init) }).toEqual({ name, init: true });
        expect(Object.keys(init).filter((k) => !CONTAINER_FIELDS.has(k))).toEqual([]);
        expect(init.image).toBe(main.image);
        expect(init.command).toBeUndefined(); // the image's entrypoint (tini) stays
        expect(init.args).toEqual(['node', `${SERVICES[name].dir}/dist/main.js`, 'migrate']);
        expect(init.securityContext).toEqual(main.securityContext);
        expect(init.resources).toMatchObject({
          requests: { cpu: expect.anything(), memory: expect.anything() },
          limits: { memory: expect.anything() },
        });
        // the init container's environment is accepted by the service's config loader, with the same database
        const resolved = resolveContainer(objects, {
          ...d,
          spec: { ...d.spec, template: { ...d.spec.template, spec: { ...spec, containers: [init] } } },
        });
        expect(resolved.problems).toEqual([]);
        expect(() => MIGRATED[name](withSecretFiles(resolved.env, tmp))).not.toThrow();
        const mainEnv = resolveContainer(objects, d).env;
        expect(resolved.env.DATABASE_URL_FILE).toBe(mainEnv.DATABASE_URL_FILE);
        expect(MIGRATED[name](withSecretFiles(mainEnv, tmp)).MIGRATE_AT_START).toBe(false);
      }
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('auth scales on CPU (argon2), like the gateway and revisions', () => {
    const hpa = objects.find((o) => o.kind === 'HorizontalPodAutoscaler' && o.spec.scaleTargetRef.name === 'auth');
    expect(hpa!.spec.metrics).toEqual([expect.objectContaining({ resource: expect.objectContaining({ name: 'cpu' }) })]);
    expect(hpa!.spec.maxReplicas).toBeGreaterThan(hpa!.spec.minReplicas);
  });
});
