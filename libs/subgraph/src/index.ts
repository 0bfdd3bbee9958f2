export { noStore } from './no-store';
export { operationRequired } from './operation-required';
export { createSubgraph, graphqlRoutes, type Subgraph, type SubgraphContext, type SubgraphOptions } from './create-subgraph';
export { type OperationCounts } from './compiled-operations';
export { plainOperation, type PlainOperation } from './plain-operation';
export { type TextField } from './text-fields';
export { apolloOnNode, type ApolloRequest, type NodeHandler } from './apollo-on-node';
export { JSONScalar, StringOrFloatScalar, literalValue } from './scalars';
