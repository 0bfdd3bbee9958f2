export { catalogue, type ErrorCode } from './catalogue';
export { AppError, isAppError, type ErrorExtensions } from './app-error';
export { errors } from './errors';
export { toErrorBody, normalizeError, type ErrorBody } from './envelope';
export { errorMiddleware, notFoundHandler, type ErrorLogger, type NodeErrorHandler } from './error-middleware';
export { toGraphQLError, formatGraphQLError } from './graphql-error';
