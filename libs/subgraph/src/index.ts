export { noStore } from './no-store';
export { createSubgraph, graphqlRoutes, type Subgraph, type SubgraphContext } from './create-subgraph';
