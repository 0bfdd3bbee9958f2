import { loadCollection, loadCollections } from '../data/catalogue.repository';
import type { Queryable } from '../data/items-pool';
import type { CollectionDef } from './collection';
import type { ItemsDeps } from './items-deps';

// Where reads and writes take collection definitions: kept in memory (deps.catalogue, catalogue-cache.ts) or read.

/** The definition a write uses: kept in memory when `cached` and there is a cache, else read FOR SHARE on `db`. */
export const writeDef = (deps: Pick<ItemsDeps, 'pool' | 'catalogue'>, db: Queryable, name: string, cached: boolean): Promise<CollectionDef | undefined> =>
  cached && deps.catalogue ? deps.catalogue.get(deps.pool, name) : loadCollection(db, name, true);

/** A nested write holds its root collection's catalogue row FOR SHARE as its children's (tree-writer.ts): read it so when it came from memory. */
export const lockedForTree = async (db: Queryable, def: CollectionDef, cached: boolean): Promise<CollectionDef> =>
  cached ? ((await loadCollection(db, def.collection, true)) ?? def) : def;

/** A collection's definition for a read: from `deps.catalogue` when there is one, else from the database. */
export const collectionDef = (deps: Pick<ItemsDeps, 'pool' | 'catalogue'>, name: string): Promise<CollectionDef | undefined> =>
  deps.catalogue ? deps.catalogue.get(deps.pool, name) : loadCollection(deps.pool, name);

/** Several collections' definitions for a read (those that exist). */
export const collectionDefs = (deps: Pick<ItemsDeps, 'pool' | 'catalogue'>, names: string[]): Promise<CollectionDef[]> =>
  deps.catalogue ? deps.catalogue.getMany(deps.pool, names) : loadCollections(deps.pool, names);
