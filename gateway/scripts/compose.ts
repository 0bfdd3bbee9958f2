// Compose the static supergraph from the subgraph SDL files and write gateway/src/graphql/supergraph.graphql.
// Run after changing a subgraph's schema.graphql: `npm run compose -w @vellum/gateway` (a test fails on drift).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { composeFromFiles, missingSubgraphFiles, REPO_ROOT, SUPERGRAPH_FILE } from '../src/graphql/compose-supergraph';

const missing = missingSubgraphFiles();
if (missing.length) {
  console.error(`Cannot compose: missing subgraph SDL ${missing.map((m) => m.file).join(', ')}`);
  process.exit(1);
}
writeFileSync(SUPERGRAPH_FILE, composeFromFiles());
console.log(`wrote ${path.relative(REPO_ROOT, SUPERGRAPH_FILE)}`);
