// A kustomize subset for the manifest tests (what the overlays use; anything else is refused, never ignored), and
// the YAML reader they share: objects are built offline, compared with `kubectl kustomize` where it is installed.
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

export type Env = Record<string, string | undefined>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Obj = Record<string, any>;

export const ROOT = path.resolve(__dirname, '../../../..');
export const K8S = path.join(ROOT, 'deploy/kubernetes');
export const OVERLAYS = ['base', 'overlays/dev', 'overlays/production', 'overlays/dev-with-nats'];

// ---- YAML ------------------------------------------------------------------------------------------------------
/** Every document of a file, parsed as Kubernetes and Compose do (YAML 1.1: 0440 is octal, `<<` merges). */
export function readYaml(file: string): Obj[] {
  const docs = parseAllDocuments(fs.readFileSync(file, 'utf8'), {
    version: '1.1',
    merge: true,
    uniqueKeys: true,
  });
  if (!Array.isArray(docs)) throw new Error(`${file}: not YAML documents`);
  const out: Obj[] = [];
  for (const d of docs) {
    if (d.errors.length) throw new Error(`${file}: ${d.errors.map((e) => e.message).join('; ')}`);
    const js = d.toJS({ maxAliasCount: 100 });
    if (js != null) out.push(js);
  }
  return out;
}

export function yamlFiles(dir: string): string[] {
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
      if (k.startsWith('$')) throw new Error(`strategic merge directive ${k} is not supported by this test's builder`);
      if (v === null) delete out[k];
      else out[k] = strategicMerge(out[k], v, k);
    }
    return out;
  }
  return structuredClone(patch);
}

const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'PersistentVolume', 'StorageClass']);
export const podSpecOf = (o: Obj): Obj | undefined => (['Deployment', 'StatefulSet'].includes(o.kind) ? o.spec?.template?.spec : undefined);

export function build(dir: string): Obj[] {
  const [k] = readYaml(path.join(dir, 'kustomization.yaml'));
  const supported = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'images', 'replicas', 'patches']);
  for (const key of Object.keys(k)) if (!supported.has(key)) throw new Error(`${dir}: kustomization field "${key}" is not supported by this test's builder`);
  let objects: Obj[] = [];
  for (const r of k.resources ?? []) {
    const p = path.resolve(dir, r);
    objects.push(...(fs.statSync(p).isDirectory() ? build(p) : readYaml(p)));
  }
  for (const p of k.patches ?? []) {
    if (Object.keys(p).some((x) => x !== 'path')) throw new Error(`${dir}: only { path } patches are supported by this test's builder`);
    for (const doc of readYaml(path.resolve(dir, p.path))) {
      const matches = objects.filter((o) => o.kind === doc.kind && o.metadata?.name === doc.metadata?.name);
      if (matches.length !== 1) throw new Error(`${dir}: patch ${p.path} matches ${matches.length} objects (${doc.kind}/${doc.metadata?.name})`);
      objects = objects.map((o) => (o === matches[0] ? (strategicMerge(o, doc) as Obj) : o));
    }
  }
  for (const r of k.replicas ?? []) {
    const target = objects.filter((o) => ['Deployment', 'StatefulSet'].includes(o.kind) && o.metadata.name === r.name);
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
  if (k.namespace) for (const o of objects) if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
  return objects;
}

/** Lists of named items sorted, so that two builds compare independently of the order of merged list items. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) {
    const items = v.map(canonical);
    const key = ['name', 'mountPath'].find((k) => items.length && items.every((x) => isMap(x) && typeof x[k] === 'string'));
    return key ? [...items].sort((a, b) => String((a as Obj)[key]).localeCompare(String((b as Obj)[key]))) : items;
  }
  if (isMap(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical(v[k])]),
    );
  return v;
}
export const byId = (objs: Obj[]) => Object.fromEntries(objs.map((o) => [`${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, canonical(o)]));
