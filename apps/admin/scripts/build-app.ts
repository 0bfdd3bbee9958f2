import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';

export const APP_DIR = path.resolve(__dirname, '..');
export const INITIAL_JS_BUDGET_KB = 150;

/** Build dist/ and measure the JavaScript a first visit loads (entry + static imports), gzipped. */
export async function buildAdminApp(): Promise<{ initialGzipKb: number; ms: number }> {
  const t = Date.now();
  const result = (await build({ root: APP_DIR, logLevel: 'warn', configFile: path.join(APP_DIR, 'vite.config.mts') })) as Rollup.RollupOutput;
  const chunks = new Map(result.output.filter((o): o is Rollup.OutputChunk => o.type === 'chunk').map((c) => [c.fileName, c]));
  const initial = new Set<string>();
  const visit = (name: string) => {
    if (initial.has(name)) return;
    initial.add(name);
    for (const i of chunks.get(name)?.imports ?? []) visit(i);
  };
  for (const c of chunks.values()) if (c.isEntry) visit(c.fileName);
  const bytes = [...initial].reduce((n, f) => n + gzipSync(readFileSync(path.join(APP_DIR, 'dist', f))).length, 0);
  const initialGzipKb = bytes / 1024;
  if (initialGzipKb > INITIAL_JS_BUDGET_KB) throw new Error(`initial JavaScript is ${initialGzipKb.toFixed(1)} kB gzipped: over the ${INITIAL_JS_BUDGET_KB} kB budget`);
  return { initialGzipKb, ms: Date.now() - t };
}
