export { createSubgraph, graphqlRoutes, type Subgraph, type SubgraphContext } from './create-subgraph';
