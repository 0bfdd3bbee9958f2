export { createLogger, serviceLogger, REDACT_PATHS, type Logger, type LoggerOptions } from './create-logger';
export { runWithRequestContext, currentRequestContext, currentRequestId, requestIdFrom, propagationHeaders, type RequestContext } from './request-context';
