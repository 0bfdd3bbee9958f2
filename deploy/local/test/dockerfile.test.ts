// deploy/docker/Dockerfile, read as text: one target per service running its compiled bundle from its own runtime
// tree; the shared runtime and build stages.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './manifests/kustomize';
import { SERVICES } from './manifests/service-config';

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
      expect(fs.readFileSync(path.join(ROOT, 'scripts/build.mjs'), 'utf8')).toContain(
        `'${dir}/dist/main.js'`,
      );
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
    for (const service of Object.keys(SERVICES))
      expect(build).toContain(SERVICES[service].dir.replace(/^\.\//, ''));
    expect(build).toMatch(/node scripts\/assemble-image\.mjs "\$s" "\/images\/\$\(basename "\$s"\)"/);
    const ignore = fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const p of ['node_modules', '.git', 'deploy/docker/secrets', 'data']) expect(ignore).toContain(p);
  });
});
