import { ApiError } from './client';

type Data = Record<string, unknown>;

/** The item as it was: its fields and where the state comes from. */
export type PastItem = Data & { $meta: { revision: number; at: string } };

/** `GET /revisions/:a/compare/:b` (the default JSON answer). */
export interface Comparison {
  from: { revision: number; at: string; deleted: boolean };
  to: { revision: number; at: string; deleted: boolean };
  changed_fields: string[];
  changes: Record<string, { from?: unknown; to?: unknown }>;
}

/** `POST /revisions/:id/restore` (and its dry run). */
export interface RestoreOutcome {
  revision: number;
  action: 'update' | 'create' | 'none';
  changed_fields: string[];
  patch: { op: string; path: string; value?: unknown }[];
  skipped: { field: string; reason: string }[];
  applied: boolean;
}

/** A history route's data (the session cookie, same origin), or an ApiError with the envelope's first error. */
async function call<T>(method: 'GET' | 'POST', url: string): Promise<T> {
  let r: Response;
  try {
    r = await fetch(url, { method, credentials: 'same-origin', headers: { accept: 'application/json' } });
  } catch {
    throw new ApiError('The server cannot be reached. Check your connection and try again.', 'NETWORK', 0);
  }
  const body = (await r.json().catch(() => ({}))) as { data?: T; errors?: { message?: string; extensions?: Record<string, unknown> }[] };
  if (r.ok) return body.data as T;
  const first = body.errors?.[0];
  const ext = first?.extensions ?? {};
  throw new ApiError(first?.message ?? `Request failed (${r.status})`, String(ext.code ?? 'UNKNOWN'), r.status, undefined, undefined, ext);
}

const enc = encodeURIComponent;

export const history = {
  /** The item at a time (ISO) or at a revision. */
  itemAt: (collection: string, id: string, point: { at: string } | { revision: number }) =>
    call<PastItem>('GET', `/items/${enc(collection)}/${enc(id)}?${'at' in point ? `at=${enc(point.at)}` : `at_revision=${point.revision}`}`),
  compare: (a: number, b: number | 'live') => call<Comparison>('GET', `/revisions/${a}/compare/${b}`),
  restore: (revision: number, dryRun: boolean) => call<RestoreOutcome>('POST', `/revisions/${revision}/restore${dryRun ? '?dry_run=true' : ''}`),
};
