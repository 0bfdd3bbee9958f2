import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError } from './app-error';

/** Turn an AppError into a GraphQLError carrying the same code and extensions. */
export function toGraphQLError(err: AppError): GraphQLError {
  return new GraphQLError(err.message, { extensions: { code: err.code, ...err.extensions } });
}

/**
 * Apollo `formatError`: errors thrown in resolvers keep the catalogue code; unknown errors become a generic
 * INTERNAL_SERVER_ERROR (details stay in the log); GraphQL's own validation/syntax codes become GRAPHQL_VALIDATION.
 */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = (error as { originalError?: unknown })?.originalError ?? error;
  if (original instanceof AppError) {
    return { ...formatted, message: original.message, extensions: { code: original.code, ...original.extensions } };
  }
  const code = formatted.extensions?.code as string | undefined;
  if (code === 'GRAPHQL_VALIDATION_FAILED' || code === 'GRAPHQL_PARSE_FAILED' || code === 'BAD_USER_INPUT') {
    return { ...formatted, extensions: { code: 'GRAPHQL_VALIDATION' } };
  }
  if (code && code !== 'INTERNAL_SERVER_ERROR' && !(original instanceof Error && !(original instanceof GraphQLError))) {
    return formatted;
  }
  return { message: 'An unexpected error occurred.', locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}
