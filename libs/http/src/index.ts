export { type Accountability, publicAccountability } from './accountability';
export { route, requireAccess, type Access, type Method, type AsyncHandler, type RouteTable } from './route';
export { createServiceApp, finishServiceApp, requestIdMiddleware, BODY_LIMIT } from './create-service-app';
export { clientInfo } from './client-info';
