/** The services behind the gateway. */
export type ServiceName = 'auth' | 'revisions' | 'items';

/**
 * Which service owns which public path (contract §3–§6). A prefix matches the path itself, anything below it
 * (`/users/me`), and nothing else (`/usersx` is not a users route).
 */
export const SERVICE_ROUTES: readonly { prefix: string; service: ServiceName }[] = [
  { prefix: '/auth', service: 'auth' },
  { prefix: '/users', service: 'auth' },
  { prefix: '/roles', service: 'auth' },
  { prefix: '/permissions', service: 'auth' },
  { prefix: '/revisions', service: 'revisions' },
  { prefix: '/activity', service: 'revisions' },
  { prefix: '/items', service: 'items' },
  { prefix: '/collections', service: 'items' },
  { prefix: '/fields', service: 'items' },
  { prefix: '/relations', service: 'items' },
  { prefix: '/versions', service: 'items' },
];

export function serviceFor(path: string): ServiceName | undefined {
  for (const r of SERVICE_ROUTES) {
    if (path === r.prefix || path.startsWith(`${r.prefix}/`)) return r.service;
  }
  return undefined;
}

/** A path under /auth is not pre-checked for an access token (see auth/token-check.middleware.ts). */
export const isAuthPath = (path: string) => path === '/auth' || path.startsWith('/auth/');

/** The route label used in metrics: the owning prefix, never the raw path (bounded cardinality). */
export function routeLabel(path: string): string {
  for (const r of SERVICE_ROUTES) if (path === r.prefix || path.startsWith(`${r.prefix}/`)) return r.prefix;
  return path;
}
