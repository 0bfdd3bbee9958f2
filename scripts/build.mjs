// `npm run build`: one JavaScript bundle per process (esbuild), so images and the distributed topology run
// `node <service>/dist/main.js` with production dependencies only and no compiler at start.
//
// - The workspace libraries (@vellum/*) and the generated Prisma clients are bundled in; third-party packages
//   stay external and are loaded from node_modules (installed with `npm ci --omit=dev`), except a package that
//   the importing file resolves to a different copy than the bundle's folder would (a nested version): that one
//   is bundled, so every import sees the version it was written against.
// - The admin app (apps/admin/dist) is built too: the gateway's image serves it at /admin.
// - `__dirname` keeps its source meaning: a module that reads files beside itself (SDL, migrations, templates)
//   gets the folder of its source file, relative to the bundle, so the same assets are found from `dist/`.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createRequire, isBuiltin } from 'node:module';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** [entry, bundle] for every process the images run. */
export const BUNDLES = [
  ['services/auth/src/main.ts', 'services/auth/dist/main.js'],
  ['services/auth/src/cli.ts', 'services/auth/dist/cli.js'],
  ['services/revisions/src/main.ts', 'services/revisions/dist/main.js'],
  ['services/items/src/main.ts', 'services/items/dist/main.js'],
  ['services/mailer/src/main.ts', 'services/mailer/dist/main.js'],
  ['gateway/src/main.ts', 'gateway/dist/main.js'],
];

const packageDir = (resolvedFile, name) => {
  const marker = `${path.sep}node_modules${path.sep}${name.split('/').join(path.sep)}${path.sep}`;
  const i = resolvedFile.lastIndexOf(marker);
  return i < 0 ? null : resolvedFile.slice(0, i + marker.length);
};
const packageName = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);

function resolveFrom(dir, spec) {
  try {
    return createRequire(path.join(dir, 'noop.js')).resolve(spec);
  } catch {
    return null;
  }
}

/** Keep third-party packages external unless the bundle's folder would load another copy than the importer does. */
const externals = (outDir) => ({
  name: 'vellum-externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || args.path.startsWith('@vellum/')) return undefined;
      const name = packageName(args.path);
      const fromImporter = resolveFrom(args.resolveDir, args.path);
      if (!fromImporter) return { external: true }; // a builtin or an optional peer: node decides at run time
      const fromBundle = resolveFrom(outDir, args.path);
      if (fromBundle && packageDir(fromBundle, name) === packageDir(fromImporter, name)) return { external: true };
      return undefined; // a nested copy: bundle it
    });
  },
});

/** `__dirname` of a workspace source file = its source folder, seen from the bundle's folder. */
const sourceDirname = (outDir) => ({
  name: 'vellum-source-dirname',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (!/\b__dirname\b/.test(text)) return { contents: text, loader: 'ts' };
      const rel = path.relative(outDir, path.dirname(args.path)) || '.';
      const prelude = `const __source_dirname = require('node:path').resolve(__dirname, ${JSON.stringify(rel)});\n`;
      return { contents: prelude + text.replace(/\b__dirname\b/g, '__source_dirname'), loader: 'ts' };
    });
  },
});

export async function buildAll({ log = console.log } = {}) {
  const started = Date.now();
  for (const dir of new Set(BUNDLES.map(([, out]) => path.dirname(path.join(ROOT, out))))) rmSync(dir, { recursive: true, force: true });
  for (const [entry, out] of BUNDLES) {
    const outfile = path.join(ROOT, out);
    const outDir = path.dirname(outfile);
    const result = await build({
      metafile: true,
      entryPoints: [path.join(ROOT, entry)],
      outfile,
      bundle: true,
      platform: 'node',
      target: 'node22',
      format: 'cjs',
      sourcemap: 'linked',
      sourcesContent: false,
      legalComments: 'none',
      logLevel: 'warning',
      plugins: [externals(outDir), sourceDirname(outDir)],
    });
    // The packages the bundle loads at run time, for scripts/assemble-image.mjs (production dependencies only).
    const imports = Object.values(result.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
    const packages = [...new Set(imports.filter((p) => !p.startsWith('node:') && !isBuiltin(p)).map(packageName))].sort();
    writeFileSync(`${outfile.replace(/\.js$/, '')}.externals.json`, `${JSON.stringify(packages, null, 2)}\n`);
    log(`built ${out} (${Math.round(statSync(outfile).size / 1024)} kB, ${packages.length} external packages)`);
  }
  log(`build: ${BUNDLES.length} bundles in ${Date.now() - started} ms`);
  // The admin app (static files the gateway serves at /admin): Vite, with its initial-JavaScript budget check.
  const admin = spawnSync(process.execPath, ['--import', 'tsx', 'apps/admin/scripts/build.ts'], { cwd: ROOT, encoding: 'utf8' });
  if (admin.status !== 0) throw new Error(`admin app build failed:\n${admin.stderr}${admin.stdout}`);
  log(admin.stdout.trim());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildAll().catch((err) => {
    console.error(err.message ?? err);
    process.exit(1);
  });
}
