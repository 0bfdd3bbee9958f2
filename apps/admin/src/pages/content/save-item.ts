import { api, ApiError, ok, okWithVersion } from '../../api/client';
import { same } from './revision-diff';
import { unchanged } from './unchanged';

type Item = Record<string, unknown>;

/** Someone saved the item after it was read: their values, their version, and the fields both changed. */
export interface Conflict {
  mine: Item;
  theirs: Item;
  etag?: string;
  /** Fields this user changed that the other save changed to something else. */
  contested: string[];
}

/**
 * Save only the fields the form changed (`read`: the item as read), with `If-Match: <its version>` so a save made
 * meanwhile is never overwritten: 'unchanged' (nothing sent, no revision), 'saved', or the conflict to resolve.
 */
export async function saveChanges(collection: string, id: string, read: Item, etag: string | undefined, form: Item): Promise<'unchanged' | 'saved' | Conflict> {
  const mine = Object.fromEntries(Object.entries(form).filter(([k, v]) => !unchanged(v, read[k])));
  if (Object.keys(mine).length === 0) return 'unchanged';
  try {
    await patch(collection, id, mine, etag);
    return 'saved';
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'PRECONDITION_FAILED') throw err;
    const latest = await okWithVersion(api.GET('/items/{collection}/{id}', { params: { path: { collection, id } } }));
    const theirs = (latest.data as { data: Item }).data;
    const contested = Object.keys(mine).filter((k) => !same(theirs[k], read[k]) && !same(theirs[k], mine[k]));
    return { mine, theirs, etag: latest.etag, contested };
  }
}

/** PATCH the given fields, conditional on the version when one is known. */
export function patch(collection: string, id: string, body: Item, etag: string | undefined) {
  return ok(api.PATCH('/items/{collection}/{id}', { params: { path: { collection, id } }, body, headers: etag ? { 'If-Match': etag } : {} }));
}
