// deploy/monitoring, validated offline: the PodMonitor scrapes the port every Vellum pod names `metrics`, the
// PrometheusRule alerts on what an operator must hear about, and every metric the rules and the Grafana dashboard
// query is one the code exports (the names are read from real registries, not from a list kept by hand).
import fs from 'node:fs';
import path from 'node:path';
import { createMetricsRegistry, httpMetrics, observeConsumer, observeOutbox, observePool, type Registry } from '@vellum/metrics';
import { createGatewayMetrics } from '@vellum/gateway/src/metrics/gateway-metrics';
import { MailMetrics } from '@vellum/mailer/src/domain/mail-metrics';
import { loginCounter } from '@vellum/auth/src/http/login-metrics';
import { readYaml, type Obj } from './manifests/kustomize';

const ROOT = path.resolve(__dirname, '../../..');
const DIR = path.join(ROOT, 'deploy/monitoring');
const BASE = path.join(ROOT, 'deploy/kubernetes/base');

/** Every metric name a scrape of the Vellum processes can show (histograms with their series suffixes). */
async function exportedNames(): Promise<Set<string>> {
  const registry: Registry = createMetricsRegistry();
  httpMetrics(registry, 'x').observe('GET', '/', 200, 0.01);
  observePool(registry, 'x', { totalCount: 1, idleCount: 1, waitingCount: 0 });
  observeOutbox(registry, 'x', async () => ({ backlog: 0, oldestAgeSeconds: 0 }));
  observeConsumer(registry, { service: 'x', stream: 's', consumer: 'c' }, async () => ({ pending: 0, ackPending: 0 }));
  createGatewayMetrics(registry).upstreamError('auth', 'ECONNREFUSED');
  new MailMetrics(registry).inc('mails_sent_total', 'password-reset');
  loginCounter(registry)('success');
  const names = new Set<string>();
  for (const m of await registry.getMetricsAsJSON()) {
    names.add(m.name);
    if (String(m.type) === 'histogram') for (const s of ['_bucket', '_count', '_sum']) names.add(`${m.name}${s}`);
  }
  return names;
}

/** Metric names in a PromQL expression (ours and Node's), not functions, labels or keywords. */
const metricsIn = (expr: string) => [...expr.matchAll(/\b((?:vellum|nodejs|process)_[a-z0-9_]+)\b/g)].map((m) => m[1]);

describe('deploy/monitoring', () => {
  const [kustomization] = readYaml(path.join(DIR, 'kustomization.yaml'));
  const objects = (kustomization.resources as string[]).flatMap((r) => readYaml(path.join(DIR, r)));
  const rule = objects.find((o) => o.kind === 'PrometheusRule')!;
  const podMonitor = objects.find((o) => o.kind === 'PodMonitor')!;
  const generator = (kustomization.configMapGenerator as Obj[])[0];
  const dashboardFile = String(generator.files[0]).split('=').pop()!;
  const dashboard = JSON.parse(fs.readFileSync(path.join(DIR, dashboardFile), 'utf8'));
  const deployments = fs
    .readdirSync(BASE)
    .flatMap((f) => readYaml(path.join(BASE, f)))
    .filter((o) => o.kind === 'Deployment');

  it('holds only monitoring.coreos.com/v1 objects and a dashboard ConfigMap for the Grafana sidecar', () => {
    expect(objects.map((o) => `${o.apiVersion} ${o.kind}`).sort()).toEqual(['monitoring.coreos.com/v1 PodMonitor', 'monitoring.coreos.com/v1 PrometheusRule']);
    expect(generator.options.labels).toMatchObject({ grafana_dashboard: '1' });
    for (const f of fs.readdirSync(DIR)) if (/\.ya?ml$|\.json$/.test(f)) expect([...kustomization.resources, 'kustomization.yaml', dashboardFile]).toContain(f);
  });

  it('the PodMonitor scrapes the metrics port every Vellum pod declares', () => {
    expect(deployments).toHaveLength(5);
    const { selector, podMetricsEndpoints } = podMonitor.spec;
    expect(podMetricsEndpoints).toEqual([expect.objectContaining({ port: 'metrics', path: '/metrics' })]);
    for (const d of deployments) {
      const labels = d.spec.template.metadata.labels;
      for (const [k, v] of Object.entries(selector.matchLabels))
        expect({ deployment: d.metadata.name, [k]: labels[k] }).toEqual({ deployment: d.metadata.name, [k]: v });
      expect(d.spec.template.spec.containers[0].ports.map((p: Obj) => p.name)).toContain('metrics');
    }
    // under the default-deny NetworkPolicies, Prometheus' namespace may reach that port (and only that one)
    const scrape = fs
      .readdirSync(BASE)
      .flatMap((f) => readYaml(path.join(BASE, f)))
      .filter((o) => o.kind === 'NetworkPolicy' && (o.spec.ingress ?? []).some((r: Obj) => (r.ports ?? []).some((p: Obj) => p.port === 9464)));
    expect(scrape).toHaveLength(1);
    expect(scrape[0].spec.podSelector.matchLabels).toEqual(selector.matchLabels);
    expect(scrape[0].spec.ingress).toEqual([
      { from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }], ports: [{ protocol: 'TCP', port: 9464 }] },
    ]);
  });

  it('alerts on outbox age, consumer lag, dead letters, the 5xx rate and login failure spikes, each explained', () => {
    const rules = (rule.spec.groups as Obj[]).flatMap((g) => g.rules as Obj[]);
    const alertOn = (metric: string) => rules.filter((r) => String(r.expr).includes(metric)).map((r) => r.alert);
    expect(alertOn('vellum_outbox_oldest_unpublished_age_seconds')).toHaveLength(1);
    expect(alertOn('vellum_consumer_pending')).toHaveLength(1);
    expect(alertOn('vellum_mails_dead_lettered_total')).toHaveLength(1);
    expect(rules.some((r) => /status=~"5\.\."/.test(r.expr) && r.expr.includes('vellum_http_request_duration_seconds_count'))).toBe(true);
    expect(rules.some((r) => /vellum_auth_logins_total\{outcome!="success"\}/.test(r.expr))).toBe(true);
    for (const r of rules) {
      expect(r.alert).toMatch(/^Vellum[A-Z]\w+$/);
      expect(['warning', 'critical']).toContain(r.labels?.severity);
      expect(r.annotations?.summary).toEqual(expect.any(String));
      expect(r.annotations?.description).toEqual(expect.any(String));
      if (r.for !== undefined) expect(r.for).toMatch(/^\d+[smh]$/);
    }
  });

  it('the rules and the dashboard query only metrics the processes export', async () => {
    const names = await exportedNames();
    const exprs = [
      ...(rule.spec.groups as Obj[]).flatMap((g) => (g.rules as Obj[]).map((r) => String(r.expr))),
      ...(dashboard.panels as Obj[]).flatMap((p) => (p.targets as Obj[]).map((t) => String(t.expr))),
    ];
    const used = new Set(exprs.flatMap(metricsIn));
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((n) => !names.has(n))).toEqual([]);
  });

  it('the dashboard is a Grafana dashboard with a data source variable and a query per panel', () => {
    expect(dashboard).toMatchObject({ uid: expect.any(String), title: 'Vellum', schemaVersion: expect.any(Number) });
    expect(dashboard.templating.list.map((v: Obj) => v.name)).toEqual(expect.arrayContaining(['datasource', 'namespace']));
    const ids = new Set<number>();
    for (const p of dashboard.panels as Obj[]) {
      expect(ids.has(p.id)).toBe(false);
      ids.add(p.id);
      expect(p.targets.length).toBeGreaterThan(0);
      expect(p.datasource.uid).toBe('${datasource}');
    }
  });
});
