export { type Accountability, publicAccountability } from './accountability';
export { route, requireAccess, validateBody, type Access, type Method, type AsyncHandler, type BodyHandler, type RouteTable, type RouteEntry, type RouteOptions } from './route';
export { parseBody, reasonOf } from './parse-body';
export { createServiceApp, finishServiceApp, requestIdMiddleware, BODY_LIMIT, type ServiceAppOptions } from './create-service-app';
export { clientInfo } from './client-info';
export { runHealthChecks, healthHandler, worst, type HealthStatus, type HealthCheck, type HealthReport, type HealthProbe } from './health';
export { listen, type RunningService, type Listening } from './listen';
export { answerParserErrors } from './parser-errors';
export { runProcess, type StartedProcess, type RunProcessOptions } from './run-process';
