import { api, json, ok } from '../../../api/client';
import type { components } from '../../../generated/api';
import { unchanged } from '../unchanged';

type Item = Record<string, unknown>;
export type Version = components['schemas']['Version'];
/** `GET /versions/:id/compare`: the live item (`main`), the version's delta (`current`) and the hash promote needs. */
export interface Comparison {
  outdated: boolean;
  mainHash: string;
  current: Item;
  main: Item;
}

/** How a version is named in the picker and in messages. */
export const versionLabel = (v: Version) => (v.name ? `${v.name} (${v.key})` : v.key);

const path = (id: string) => ({ params: { path: { id } } });

/** The content versions (named drafts) of one item, by key, with the API's calls on them. */
export const versions = {
  async of(collection: string, item: string): Promise<Version[]> {
    const filter = json({ _and: [{ collection: { _eq: collection } }, { item: { _eq: item } }] });
    return (await ok(api.GET('/versions', { params: { query: { filter, sort: 'key', limit: -1, fields: 'id,key,name,collection,item,hash' } } }))).data;
  },
  async create(collection: string, item: string, key: string, name: string): Promise<Version> {
    return (await ok(api.POST('/versions', { body: { collection, item, key, name: name || null } }))).data;
  },
  async rename(id: string, key: string, name: string): Promise<Version> {
    return (await ok(api.PATCH('/versions/{id}', { ...path(id), body: { key, name: name || null } }))).data;
  },
  /** One version with its scheduled promote (`publish_at`, `publish_force`, `publish_status`, `publish_error`). */
  async get(id: string): Promise<Version> {
    return (await ok(api.GET('/versions/{id}', path(id)))).data;
  },
  /** Schedule the promote of the whole delta at `at` (ISO with offset), forced or not; `null` cancels. */
  async schedule(id: string, at: string | null, force = false): Promise<Version> {
    return (await ok(api.PATCH('/versions/{id}', { ...path(id), body: at === null ? { publish_at: null } : { publish_at: at, publish_force: force } }))).data;
  },
  async remove(id: string): Promise<void> {
    await ok(api.DELETE('/versions/{id}', path(id)));
  },
  async compare(id: string): Promise<Comparison> {
    return (await ok(api.GET('/versions/{id}/compare', path(id)))).data as unknown as Comparison;
  },
  /** Promote the chosen fields (all of the delta when none are named); 422 VERSION_HASH_MISMATCH when main moved. */
  async promote(id: string, mainHash: string, fields?: string[]): Promise<void> {
    await ok(api.POST('/versions/{id}/promote', { ...path(id), body: fields ? { mainHash, fields } : { mainHash } }));
  },
  /**
   * The item as the version `key` has it (its delta laid over the live item); `children`: one-to-many fields read
   * with their rows, as the version has them (its created, changed and removed children).
   */
  async read(collection: string, id: string, key: string, children: string[] = []): Promise<Item> {
    const query = { version: key, ...(children.length ? { fields: ['*', ...children.map((c) => `${c}.*`)].join(',') } : {}) };
    return (await ok(api.GET('/items/{collection}/{id}', { params: { path: { collection, id }, query } }))).data as Item;
  },
  /**
   * Save the fields the form changed (`read`: the item as the version has it) to the version: its delta takes them,
   * the live item is not written. 'unchanged' when nothing changed (nothing sent).
   */
  async save(id: string, read: Item, form: Item): Promise<'unchanged' | 'saved'> {
    const changed = Object.fromEntries(Object.entries(form).filter(([k, v]) => !unchanged(v, read[k])));
    if (Object.keys(changed).length === 0) return 'unchanged';
    await ok(api.POST('/versions/{id}/save', { ...path(id), body: changed }));
    return 'saved';
  },
};
