import { api, ok } from '../api/client';
import { useAsync } from '../ui/use-async';

export interface CollectionField {
  field: string;
  type: string;
  schema?: {
    is_primary_key?: boolean;
    has_auto_increment?: boolean;
    is_nullable?: boolean;
    is_unique?: boolean;
    is_indexed?: boolean;
    default_value?: unknown;
  } | null;
  meta?: { note?: string | null; [k: string]: unknown } | null;
}
export interface Collection {
  collection: string;
  primary_key: string;
  fields: CollectionField[];
  meta?: { display_template?: string | null; note?: string | null; [k: string]: unknown } | null;
}

/** The collections the caller may see (GET /collections answers with what the role may read). */
export function useCollections() {
  return useAsync(async () => (await ok(api.GET('/collections'))).data as unknown as Collection[], []);
}

export function useCollection(name: string, tick = 0) {
  return useAsync(async () => (await ok(api.GET('/collections/{name}', { params: { path: { name } } }))).data as unknown as Collection, [name, tick]);
}
