export { createSubgraph, type Subgraph, type SubgraphContext } from './create-subgraph';
