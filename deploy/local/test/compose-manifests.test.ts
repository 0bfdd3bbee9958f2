// docker-compose.yml, validated offline (as the Kubernetes files in kubernetes-manifests.test.ts): every variable
// one of the Vellum services sets is one its src/config.ts reads and the resolved environment passes its config
// loader; upstream URLs, TRUST_PROXY and the secrets are cross-checked; `docker-compose config -q` runs when
// docker-compose is installed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, readYaml, type Env, type Obj } from './manifests/kustomize';
import { SERVICES, unknownVariable } from './manifests/service-config';
import { secretFilesForThisFile } from './manifests/secret-files';

const withSecretFiles = secretFilesForThisFile();

describe('docker-compose.yml', () => {
  const file = path.join(ROOT, 'docker-compose.yml');
  const [compose] = readYaml(file);
  /** ${VAR:-default} / ${VAR-default} / ${VAR} with no variable set (the defaults a workstation gets). */
  const interpolate = (v: string) => v.replace(/\$\{([A-Z0-9_]+)(?::?-([^}]*))?\}/g, (_m, _n, d) => d ?? '');
  const vellum = Object.entries(compose.services as Record<string, Obj>).filter(([, s]) => s.build?.args?.SERVICE);
  /** The service a compose entry builds: the Dockerfile's one target, its folder and port as build arguments. */
  const serviceOf = (s: Obj) => path.basename(String(s.build.args.SERVICE));

  const dockerCompose = spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0;
  if (!dockerCompose) console.warn('!!! docker-compose not found (apt-get install --no-install-recommends docker-compose): `config -q` not run');
  (dockerCompose ? it : it.skip)('docker-compose config -q accepts it', () => {
    const r = spawnSync('docker-compose', ['-f', file, 'config', '-q'], { encoding: 'utf8', cwd: ROOT });
    expect(r.stderr.trim()).toBe('');
    expect(r.status).toBe(0);
  });

  it('runs every service (revisions twice) from the Dockerfile, each with its folder and port, with infrastructure', () => {
    for (const [, s] of vellum) {
      expect(s.build.target).toBe('service');
      const info = SERVICES[serviceOf(s)];
      expect(s.build.args).toEqual({ SERVICE: info.dir.replace(/^\.\//, ''), PORT: String(info.port) });
    }
    expect(vellum.map(([, s]) => serviceOf(s)).sort()).toEqual(['auth', 'gateway', 'items', 'mailer', 'revisions', 'revisions']);
    for (const infra of ['postgres', 'nats', 'redis', 'mailpit']) expect(compose.services[infra]).toBeDefined();
    expect(compose.services.postgres.image).toMatch(/^postgres:15/);
    expect(compose.services.nats.command).toContain('-js');
    expect(compose.services.gateway.ports.map(String)).toEqual([expect.stringMatching(/:8055$/)]);
  });

  it('sets only variables the services read, which their config loaders accept', () => {
    const problems: string[] = [];
    const databases = [...fs.readFileSync(path.join(ROOT, 'deploy/docker/postgres/01-databases.sql'), 'utf8').matchAll(/CREATE DATABASE (\w+)/g)].map(
      (m) => m[1],
    );
    for (const [name, s] of vellum) {
      const service = serviceOf(s);
      const env: Env = Object.fromEntries(Object.entries(s.environment as Obj).map(([k, v]) => [k, interpolate(String(v))]));
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
        if (!databases.includes(db)) problems.push(`${name}: database ${db} is not created by deploy/docker/postgres`);
      }
      for (const k of ['AUTH_URL', 'AUTH_URLS', 'REVISIONS_URLS', 'ITEMS_URLS', 'NATS_URL', 'REDIS_URL']) {
        for (const u of env[k]?.split(',') ?? []) {
          const url = new URL(u);
          const target = compose.services[url.hostname];
          if (!target) problems.push(`${name}: ${k} names ${url.hostname}, not a compose service`);
          else if (target.build?.args?.SERVICE && String(SERVICES[serviceOf(target)].port) !== url.port)
            problems.push(`${name}: ${k} port ${url.port} is not where ${url.hostname} listens`);
          if (target && !s.depends_on?.[url.hostname]) problems.push(`${name}: uses ${url.hostname} without depends_on`);
        }
      }
      for (const dep of Object.keys(s.depends_on ?? {})) if (!compose.services[dep]) problems.push(`${name}: depends on unknown ${dep}`);
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

  it('TRUST_PROXY: the published gateway believes nobody, the services behind it believe the gateway', () => {
    const trust = (s: Obj) =>
      SERVICES[serviceOf(s)].load(withSecretFiles(Object.fromEntries(Object.entries(s.environment as Obj).map(([k, v]) => [k, interpolate(String(v))]))))
        .TRUST_PROXY;
    expect(trust(compose.services.gateway)).toBe(false);
    for (const name of ['auth', 'revisions-1', 'revisions-2', 'items']) expect({ name, trust: trust(compose.services[name]) }).toEqual({ name, trust: 1 });
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
