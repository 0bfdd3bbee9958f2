import type { ServiceName } from './service-routes';

const ITEM_PATH = /^\/items\/[^/]+(\/[^/]+)?$/;
const RESTORE_PATH = /^\/revisions\/[^/]+\/restore$/;

/**
 * The history routes whose owner is not their path prefix's: a read of items as they were (`GET /items/…?at=` or
 * `?at_revision=`) is answered by the revisions service, whose database holds the past; a restore
 * (`POST /revisions/:id/restore`) by the items service, since it is a write of the item. Undefined: the prefix decides.
 */
export function historyServiceFor(method: string, path: string, url: string, q: number): ServiceName | undefined {
  if (method === 'POST') return RESTORE_PATH.test(path) ? 'items' : undefined;
  if (q === -1 || (method !== 'GET' && method !== 'HEAD') || !ITEM_PATH.test(path)) return undefined;
  const params = new URLSearchParams(url.slice(q + 1));
  return params.has('at') || params.has('at_revision') ? 'revisions' : undefined;
}
