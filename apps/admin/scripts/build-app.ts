import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';

export const APP_DIR = path.resolve(__dirname, '..');
export const DIST = path.join(APP_DIR, 'dist');
export const INITIAL_JS_BUDGET_KB = 150;

/**
 * Move a finished build into dist/ without a moment where a running gateway finds no app: new hashed assets are
 * copied in first, then index.html is replaced atomically (rename), then assets no build references any more are
 * removed. Two builds at once (two test files starting the platform) each publish the same file names.
 */
function publish(tmp: string): void {
  mkdirSync(path.join(DIST, 'assets'), { recursive: true });
  const fresh = new Set(readdirSync(path.join(tmp, 'assets')));
  for (const f of fresh) if (!existsSync(path.join(DIST, 'assets', f))) copyFileSync(path.join(tmp, 'assets', f), path.join(DIST, 'assets', f));
  for (const f of readdirSync(tmp)) {
    if (f === 'assets') continue;
    copyFileSync(path.join(tmp, f), path.join(DIST, `.${f}.${process.pid}`));
    renameSync(path.join(DIST, `.${f}.${process.pid}`), path.join(DIST, f));
  }
  for (const f of readdirSync(path.join(DIST, 'assets'))) if (!fresh.has(f)) rmSync(path.join(DIST, 'assets', f), { force: true });
}

/** Build dist/ and measure the JavaScript a first visit loads (entry + static imports), gzipped. */
export async function buildAdminApp(): Promise<{ initialGzipKb: number; ms: number }> {
  const t = Date.now();
  const tmp = path.join(APP_DIR, `.dist-build-${process.pid}`);
  try {
    const result = (await build({
      root: APP_DIR,
      logLevel: 'warn',
      configFile: path.join(APP_DIR, 'vite.config.mts'),
      build: { outDir: tmp, emptyOutDir: true },
    })) as Rollup.RollupOutput;
    const chunks = new Map(result.output.filter((o): o is Rollup.OutputChunk => o.type === 'chunk').map((c) => [c.fileName, c]));
    const initial = new Set<string>();
    const visit = (name: string) => {
      if (initial.has(name)) return;
      initial.add(name);
      for (const i of chunks.get(name)?.imports ?? []) visit(i);
    };
    for (const c of chunks.values()) if (c.isEntry) visit(c.fileName);
    const bytes = [...initial].reduce((n, f) => n + gzipSync(readFileSync(path.join(tmp, f))).length, 0);
    const initialGzipKb = bytes / 1024;
    if (initialGzipKb > INITIAL_JS_BUDGET_KB)
      throw new Error(`initial JavaScript is ${initialGzipKb.toFixed(1)} kB gzipped: over the ${INITIAL_JS_BUDGET_KB} kB budget`);
    publish(tmp);
    return { initialGzipKb, ms: Date.now() - t };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
