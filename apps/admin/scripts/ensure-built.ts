// Before `npm start` (the root package's prestart): build the admin app when dist/ is missing or older than
// its sources, so a fresh clone serves /admin with no extra command. Otherwise nothing to do (a few ms).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { APP_DIR, buildAdminApp } from './build-app';

const SOURCES = ['src', 'index.html', 'vite.config.mts', 'package.json'];

function newestMtime(p: string): number {
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(p).reduce((m, name) => (name === 'generated' ? m : Math.max(m, newestMtime(path.join(p, name)))), 0);
}

/** True when dist/index.html is missing or a source changed after it was built. */
export function adminAppIsStale(): boolean {
  const index = path.join(APP_DIR, 'dist', 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return SOURCES.some((s) => existsSync(path.join(APP_DIR, s)) && newestMtime(path.join(APP_DIR, s)) > built);
}

export async function ensureAdminBuilt(log: (m: string) => void = console.log): Promise<void> {
  if (!adminAppIsStale()) return;
  log('building the admin app (apps/admin → apps/admin/dist)…');
  const { initialGzipKb, ms } = await buildAdminApp();
  log(`admin app built in ${ms} ms: initial JavaScript ${initialGzipKb.toFixed(1)} kB gzipped`);
}

if (require.main === module) {
  ensureAdminBuilt().catch((err: Error) => {
    // npm start still starts: /admin then answers 503 with the command that builds the app.
    console.error(`the admin app could not be built: ${err.message}`);
  });
}
