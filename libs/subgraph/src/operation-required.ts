import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';

function invalid(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'GRAPHQL_VALIDATION', http: { status: 400 } } });
}

/**
 * A request whose document names no runnable operation — an unknown `operationName`, several operations and no name,
 * a subscription the schema has no root for — is the caller's mistake: 400 `GRAPHQL_VALIDATION`, as graphql-js's own
 * validation errors. Without this, Apollo Server passes it on to execution, whose throw (Apollo Gateway's
 * operation lookup) answers 500.
 */
export const operationRequired: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation, request, schema }) {
        if (!operation) {
          throw invalid(
            request.operationName
              ? `Unknown operation named "${request.operationName}".`
              : 'Must provide operation name if query contains multiple operations.',
          );
        }
        if (operation.operation === 'subscription' && !schema.getSubscriptionType()) throw invalid('This API has no subscriptions.');
      },
    };
  },
};
