import { api, json, ok } from '../../../api/client';
import type { Collection } from '../../../data/collections';
import { displayLabel, labelQuery } from '../../../data/display';
import { useAsync } from '../../../ui/use-async';
import type { Key } from './alias-changes';

export const PICK_LIMIT = 100;
export interface Labelled {
  key: Key;
  label: string;
}

/** Items of a collection with the labels people know them by (display template, first text field, or key); `more`: there are more than shown. */
export async function labelledItems(
  c: Collection,
  opts: { filter?: object; search?: string; limit?: number } = {},
): Promise<{ list: Labelled[]; more: boolean }> {
  const limit = opts.limit ?? PICK_LIMIT;
  const query = {
    fields: labelQuery(c),
    sort: c.primary_key,
    limit: limit < 0 ? -1 : limit + 1,
    ...(opts.filter ? { filter: json(opts.filter) } : {}),
    ...(opts.search ? { search: opts.search } : {}),
  };
  const rows = (await ok(api.GET('/items/{collection}', { params: { path: { collection: c.collection }, query } }))).data as Record<string, unknown>[];
  const list = rows.map((r) => ({ key: r[c.primary_key] as Key, label: displayLabel(c, r) }));
  return limit >= 0 && list.length > limit ? { list: list.slice(0, limit), more: true } : { list, more: false };
}

/** The labels of the items with these keys (one request; none when no key), by key as text. */
export async function labelsByKey(c: Collection, keys: Key[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const { list } = await labelledItems(c, { filter: { [c.primary_key]: { _in: keys.map(String) } }, limit: -1 });
  return new Map(list.map((i) => [String(i.key), i.label]));
}

/** `labelledItems` as a hook (re-read when its inputs change). */
export function useLabelledItems(c: Collection | undefined, opts: { filter?: object; search?: string; limit?: number }, deps: unknown[]) {
  return useAsync(async () => (c ? labelledItems(c, opts) : { list: [], more: false }), [c?.collection, JSON.stringify(opts), ...deps]);
}
