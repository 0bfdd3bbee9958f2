// `npm run build -w @vellum/admin`: the production bundle in dist/ (Vite), then the initial JavaScript's
// gzipped size — the entry chunk and every chunk it imports statically — checked against the 150 kB budget.
import { buildAdminApp } from './build-app';

buildAdminApp()
  .then(({ initialGzipKb, ms }) => console.log(`admin app built in ${ms} ms: initial JavaScript ${initialGzipKb.toFixed(1)} kB gzipped (budget 150 kB)`))
  .catch((err: Error) => {
    console.error(err.message ?? err);
    process.exit(1);
  });
