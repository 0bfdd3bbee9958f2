// Assemble one service's runtime tree (what its image holds under /app) from a built, installed checkout:
//   node scripts/assemble-image.mjs <service folder> <output folder>
// It copies the service's bundles (`npm run build`), the files they read at run time (migrations, SDL, mail
// templates, the supergraph), and exactly the installed packages the bundles load — their production
// dependencies, transitively, optional ones when installed — at the same relative paths, so Node resolves them
// as in the checkout. No dev dependency, no TypeScript, no compiler, no other service's packages.
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Files a service reads beside its bundle at run time, relative to the service folder. */
export const RUNTIME_ASSETS = {
  'services/auth': ['prisma/migrations', 'src/graphql/schema.graphql'],
  'services/revisions': ['prisma/migrations', 'src/graphql/schema.graphql'],
  'services/items': ['prisma/migrations', 'src/graphql/schema.graphql'],
  'services/mailer': ['src/templates'],
  // The admin app's static build (served at /admin), at apps/admin/dist beside gateway/ as in the checkout.
  gateway: ['src/graphql/supergraph.graphql', '../apps/admin/dist'],
};

/**
 * Files of installed packages a service reads (not loads) at run time, relative to the repository: the gateway
 * serves the Redoc bundle of its API reference page (the package's code is never imported, so its dependencies
 * stay out of the image).
 */
export const RUNTIME_PACKAGE_FILES = {
  gateway: ['node_modules/redoc/package.json', 'node_modules/redoc/bundles/redoc.standalone.js'],
};

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** The folder of package `name` as Node would find it from `fromDir`, or null. */
function findPackage(fromDir, name) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === path.dirname(dir) || !dir.startsWith(ROOT)) return null;
  }
}

/** Every package folder the bundles of `serviceDir` need at run time (production dependencies only). */
export function runtimePackages(serviceDir) {
  const distDir = path.join(ROOT, serviceDir, 'dist');
  const roots = readdirSync(distDir)
    .filter((f) => f.endsWith('.externals.json'))
    .flatMap((f) => readJson(path.join(distDir, f)));
  const found = new Set();
  const visit = (fromDir, name, optional) => {
    const dir = findPackage(fromDir, name);
    if (!dir) {
      if (optional) return;
      throw new Error(`${serviceDir}: package ${name} (needed from ${path.relative(ROOT, fromDir)}) is not installed`);
    }
    if (found.has(dir)) return;
    found.add(dir);
    const pkg = readJson(path.join(dir, 'package.json'));
    const real = realpathSync(dir);
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(real, dep, false);
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) visit(real, dep, true);
    const optionalPeers = pkg.peerDependenciesMeta ?? {};
    for (const dep of Object.keys(pkg.peerDependencies ?? {})) if (!optionalPeers[dep]?.optional) visit(real, dep, false);
  };
  for (const name of new Set(roots)) visit(distDir, name, false);
  return [...found].sort();
}

export function assembleImage(serviceDir, outDir) {
  const dist = path.join(ROOT, serviceDir, 'dist');
  if (!existsSync(dist)) throw new Error(`${serviceDir}/dist is missing: run \`npm run build\` first`);
  mkdirSync(outDir, { recursive: true });
  const copy = (rel) => cpSync(path.join(ROOT, rel), path.join(outDir, rel), { recursive: true, dereference: true });
  copy(path.join(serviceDir, 'dist'));
  for (const asset of RUNTIME_ASSETS[serviceDir] ?? []) copy(path.join(serviceDir, asset));
  for (const file of RUNTIME_PACKAGE_FILES[serviceDir] ?? []) copy(file);
  const pkg = readJson(path.join(ROOT, serviceDir, 'package.json'));
  writeFileSync(path.join(outDir, serviceDir, 'package.json'), `${JSON.stringify({ name: pkg.name, version: pkg.version, private: true }, null, 2)}\n`);
  const packages = runtimePackages(serviceDir);
  for (const dir of packages) copy(path.relative(ROOT, dir));
  return { packages: packages.length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [serviceDir, outDir] = process.argv.slice(2);
  if (!serviceDir || !outDir || !RUNTIME_ASSETS[serviceDir]) {
    console.error(`usage: node scripts/assemble-image.mjs <${Object.keys(RUNTIME_ASSETS).join('|')}> <output folder>`);
    process.exit(2);
  }
  try {
    const { packages } = assembleImage(serviceDir, path.resolve(outDir));
    console.log(`${serviceDir} → ${outDir}: bundles, assets and ${packages} packages`);
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
