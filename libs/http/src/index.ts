export { type Accountability, publicAccountability } from './accountability';
export {
  route,
  requireAccess,
  validateBody,
  type Access,
  type Method,
  type AsyncHandler,
  type BodyHandler,
  type RouteTable,
  type RouteEntry,
  type RouteOptions,
} from './route';
export { parseBody, reasonOf } from './parse-body';
export { accessLog, logAccess, routeOf, type AccessLogger, type AccessLogLine, type RequestObserver } from './access-log';
export { serverRoutes, type ServerRoutesOptions } from './server-routes';
export {
  createServiceApp,
  finishServiceApp,
  noConditionalRequests,
  requestIdMiddleware,
  requestContextMiddleware,
  BODY_LIMIT,
  type ServiceAppOptions,
} from './create-service-app';
export { clientInfo } from './client-info';
export {
  runHealthChecks,
  healthHandler,
  readyHandler,
  pingHandler,
  cachedHealth,
  bearerIs,
  worst,
  HEALTH_CONTENT_TYPE,
  type HealthEndpointOptions,
  type HealthStatus,
  type HealthCheck,
  type HealthReport,
  type HealthProbe,
} from './health';
export { listen, listenOn, runningService, type RunningService, type Listening } from './listen';
export { freePort } from './free-port';
export { answerParserErrors } from './parser-errors';
export { runProcess, type StartedProcess, type RunProcessOptions } from './run-process';
export { startObservability, type ObservabilityConfig, type ProcessObservability } from './observability';
export { sendJson, sendJsonText } from './json-text';
export { RawJson, rawJson, stringifyJson } from '@vellum/contracts';
export { acceptedEncoding, answerEncoding, compress, encodeBody, COMPRESS_MIN_BYTES, type Encoding } from './compress-body';
export { LocalServices, type RequestListener } from './local-services';
export { fastLane, fastRoute, fastRouteOf, matchFastRoute, type FastRouteOptions, type LaneHandler, type LaneRequest } from './fast-routes';
export type { ServiceApp, ServiceAppDeps } from './service-app';
export { serviceListener } from './service-listener';
export { clientIp, clientProtocol, compileTrust, memoisePeerTrust, type TrustFn } from './client-address';
export { cachedQueryParser, extendedQueryParser, type QueryParser } from './query-parser';
export { jsonTooDeep, refuseDeepJson, MAX_JSON_DEPTH } from './json-depth';
