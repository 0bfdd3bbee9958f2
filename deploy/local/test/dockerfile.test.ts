// deploy/docker/Dockerfile, read as text: one target for every service (its folder and port as build arguments)
// running its compiled bundle from its own runtime tree; the shared runtime and build stages.
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

  it('one target, the last stage, runs the compiled service named by its build arguments from its own runtime tree', () => {
    const names = [...stages.keys()];
    expect(names[names.length - 1]).toBe('service');
    const lines = stages.get('service')!;
    expect(lines).toEqual(expect.arrayContaining(['ARG SERVICE=gateway', 'ARG PORT=8055', 'ENV SERVICE_DIR=${SERVICE} PORT=${PORT}']));
    // only the service's own tree is copied (not every service's: a later `rm` would not shrink the image)
    expect(lines).toContain('COPY --from=build --chown=root:root /images/${SERVICE} /app');
    expect(lines.filter((l) => l.startsWith('COPY '))).toHaveLength(1);
    const cmd = JSON.parse(lines.find((l) => l.startsWith('CMD '))!.slice(4)) as string[];
    expect(cmd).toEqual(['sh', '-c', 'exec node "$SERVICE_DIR/dist/main.js"']);
  });

  it.each(Object.keys(SERVICES))('%s: its folder holds a bundle `npm run build` emits', (service) => {
    const dir = SERVICES[service].dir.replace(/^\.\//, '');
    expect(fs.readFileSync(path.join(ROOT, 'scripts/build.mjs'), 'utf8')).toContain(`'${dir}/dist/main.js'`);
  });

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
    expect(build).toMatch(/node scripts\/assemble-image\.mjs "\$s" "\/images\/\$s"/);
    const ignore = fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const p of ['node_modules', '.git', 'deploy/docker/secrets', 'data']) expect(ignore).toContain(p);
  });
});
