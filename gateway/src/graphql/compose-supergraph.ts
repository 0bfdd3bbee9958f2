import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';

interface SubgraphSource {
  name: string;
  /** Where the SDL lives (relative to the repository root for the real subgraphs). */
  file: string;
}

export const REPO_ROOT = path.resolve(__dirname, '../../..');
export const SUPERGRAPH_FILE = path.resolve(__dirname, 'supergraph.graphql');

/** The subgraphs behind /graphql/system, in composition order. */
const SUBGRAPHS: SubgraphSource[] = [
  { name: 'auth', file: 'services/auth/src/graphql/schema.graphql' },
  { name: 'revisions', file: 'services/revisions/src/graphql/schema.graphql' },
  { name: 'items', file: 'services/items/src/graphql/schema.graphql' },
];

/**
 * The URL written into the supergraph for a subgraph. It is a placeholder naming the subgraph, never a real
 * address: at run time the gateway sends each subgraph's fetches to that service's replicas
 * (`${replica}/graphql`), so one committed supergraph works in every topology.
 */
const placeholderUrl = (name: string) => `http://${name}.subgraph.invalid/graphql`;

/** Compose a static supergraph from subgraph SDL strings; composition errors are thrown, all listed. */
export function composeSupergraph(subgraphs: { name: string; sdl: string }[]): string {
  const result = composeServices(subgraphs.map((s) => ({ name: s.name, url: placeholderUrl(s.name), typeDefs: parse(s.sdl) })));
  if (result.errors) {
    throw new Error(`Supergraph composition failed:\n${result.errors.map((e) => `  - ${e.message}`).join('\n')}`);
  }
  return `${result.supergraphSdl.trimEnd()}\n`;
}

/** The SDL files that are missing (colleagues may still be writing them). */
export const missingSubgraphFiles = (root = REPO_ROOT) => SUBGRAPHS.filter((s) => !existsSync(path.join(root, s.file)));

export function composeFromFiles(root = REPO_ROOT): string {
  return composeSupergraph(SUBGRAPHS.map((s) => ({ name: s.name, sdl: readFileSync(path.join(root, s.file), 'utf8') })));
}

/** The committed supergraph, or undefined before the first `npm run compose -w @vellum/gateway`. */
export function readCommittedSupergraph(): string | undefined {
  return existsSync(SUPERGRAPH_FILE) ? readFileSync(SUPERGRAPH_FILE, 'utf8') : undefined;
}
