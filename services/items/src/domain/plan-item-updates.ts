import { errors } from '@vellum/errors';
import type { CollectionDef } from './collection';
import { primaryKeyValue, refuseKeyChange, validateWrite } from './validate-write';

/** One change: the item's key (or the primary key inside `data`) and the fields to set (validated by the route's schema). */
export interface ItemUpdate {
  key?: unknown;
  data: Record<string, unknown>;
}

/** A checked change: the item's primary key value and the column values to set (the key itself never among them). */
export interface PlannedUpdate {
  key: string | number;
  values: Record<string, unknown>;
}

/**
 * Every update of one PATCH → the key and values to write, before anything is written: a change without a key
 * is 400 INVALID_PAYLOAD, a key that cannot be one of the collection's is 403 FORBIDDEN (as a missing item),
 * a payload that changes the key is 400 INVALID_PAYLOAD (sending the item's own key back is harmless), then
 * `validateWrite` in update mode.
 */
export function planItemUpdates(def: CollectionDef, updates: ItemUpdate[], allowed: '*' | string[]): PlannedUpdate[] {
  return updates.map((u) => {
    if (!('key' in u) && !Object.hasOwn(u.data, def.primaryKey)) throw errors.invalidPayload(`Every item needs its primary key "${def.primaryKey}"`);
    const key = primaryKeyValue(def, 'key' in u ? u.key : u.data[def.primaryKey]);
    if (key === undefined) throw errors.forbidden();
    refuseKeyChange(def, u.data, key);
    const { [def.primaryKey]: _key, ...data } = u.data;
    return { key, values: validateWrite(def, data, allowed, 'update') };
  });
}
