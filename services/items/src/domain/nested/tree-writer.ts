import { randomUUID } from 'node:crypto';
import { errors } from '@vellum/errors';
import { loadCollection } from '../../data/catalogue.repository';
import { itemsRepository, relatedRows, type Row, type Written } from '../../data/items.repository';
import type { Queryable } from '../../data/items-pool';
import { permits } from '../access-rules';
import type { CollectionDef } from '../collection';
import { mapWriteError } from '../db-errors';
import type { VersionedChange } from '../enqueue-item-changes';
import { itemChangeMessage, pick, type ChangeContext } from '../item-change';
import type { ItemsDeps } from '../items-deps';
import type { RelationDef } from '../relation';
import { isPlainObject, primaryKeyValue, validateWrite } from '../validate-write';
import { childChanges, splitPayload, type SplitPayload } from './nested-payload';

type Payload = Record<string, unknown>;
export type Key = string | number;
export interface TreeWritten extends Written {
  key: Key;
}

/**
 * One nested write (Directus's payload shapes), inside the caller's transaction: every row of the tree written with
 * the caller's permissions on its own collection (403 names it), each with its item-change event, whose
 * `parent_event` is the event of the row that carried it. `changes` are enqueued by the caller, in the same transaction.
 */
export class TreeWriter {
  readonly changes: VersionedChange[] = [];
  private nested = 0;
  private readonly defs = new Map<string, CollectionDef>();

  constructor(
    private readonly db: Queryable,
    private readonly deps: ItemsDeps,
    private readonly ctx: ChangeContext,
  ) {}

  private allowed(collection: string, action: 'create' | 'update' | 'delete', keys: string[] = []): '*' | string[] {
    const a = this.deps.rules.fields(this.ctx.accountability, collection, action);
    if (!a || keys.some((k) => !permits(a, k))) throw errors.forbiddenIn(collection, action);
    return a;
  }

  private count(parent: string | null) {
    const max = this.deps.maxBatchMutation ?? 1000;
    if (parent !== null && ++this.nested > max) throw errors.invalidPayload(`A write may change at most ${max} nested items (MAX_BATCH_MUTATION)`);
  }

  /** A related collection's definition, its catalogue row held FOR SHARE like the root's. */
  private async collection(name: string): Promise<CollectionDef> {
    let d = this.defs.get(name);
    if (!d) {
      d = await loadCollection(this.db, name, true);
      if (!d) throw errors.invalidPayload(`collection "${name}" does not exist`);
      this.defs.set(name, d);
    }
    return d;
  }

  private event(
    def: CollectionDef,
    action: 'create' | 'update' | 'delete',
    key: Key,
    data: Row | null,
    delta: Row | null,
    version: number,
    id: string,
    parent: string | null,
  ) {
    this.changes.push({ message: itemChangeMessage(this.ctx, def.collection, action, key, data, delta, { id, parent }), version });
  }

  private relational(s: SplitPayload) {
    return [...s.parents.map((p) => p.field), ...s.children.map((c) => c.alias)];
  }

  /** Before creating a list's rows: the key's sequence moved past the keys they name (none it generates is one). */
  async namedKeysFirst(def: CollectionDef, items: unknown[]): Promise<void> {
    const named = items.filter(isPlainObject).map((item) => item[def.primaryKey]);
    const keys = keysOf(def, named);
    if (keys.length) await itemsRepository.advanceIdentity(this.db, def, keys);
  }

  /**
   * Creates a row: its many-to-one rows first (their keys go in its columns), then its children. `id`: its event's id
   * when the caller names it ahead (a restore writes the rows under it itself).
   */
  async create(def: CollectionDef, payload: Payload, parent: string | null, id: string = randomUUID()): Promise<TreeWritten> {
    this.count(parent);
    const split = splitPayload(def, payload);
    const allowed = this.allowed(def.collection, 'create', this.relational(split));
    const own = { ...split.own };
    for (const p of split.parents) own[p.field] = await this.parentKey(p.relation, p.value, split.own, id);
    const values = validateWrite(def, own, allowed, 'create');
    const w = await itemsRepository.insert(this.db, def, values).catch(mapWriteError);
    const key = w.row[def.primaryKey] as Key;
    if (values[def.primaryKey] !== undefined) await itemsRepository.advanceIdentity(this.db, def, [key]);
    this.event(def, 'create', key, w.row, pick(w.row, Object.keys(values)), w.version, id, parent);
    for (const c of split.children) await this.children(def, key, c.relation, c.alias, c.value, id, true);
    return { ...w, key };
  }

  /**
   * Updates a row (it must exist: 403) and what hangs from it. Its revision is written when its columns changed or
   * anything under it did (then with `delta` {} when only its children changed); nothing at all changed: no event.
   */
  async update(
    def: CollectionDef,
    key: Key,
    payload: Payload,
    parent: string | null,
    ifMatch: number[] | null = null,
    id: string = randomUUID(),
  ): Promise<TreeWritten> {
    this.count(parent);
    const split = splitPayload(def, payload);
    const allowed = this.allowed(def.collection, 'update', this.relational(split));
    const mark = this.changes.length;
    const own = { ...split.own };
    for (const p of split.parents) own[p.field] = await this.parentKey(p.relation, p.value, split.own, id);
    const values = validateWrite(def, own, allowed, 'update');
    const found = Object.keys(values).length ? await itemsRepository.update(this.db, def, [key], values, ifMatch).catch(mapWriteError) : [];
    const w = found[0] ?? (await itemsRepository.selectForUpdate(this.db, def, [key]))[0];
    if (!w) throw errors.forbidden();
    if (Number.isNaN(w.version) || (w.unchanged && ifMatch !== null && !ifMatch.includes(w.version))) {
      throw errors.preconditionFailed(Number.isNaN(w.version) ? undefined : w.version);
    }
    for (const c of split.children) await this.children(def, key, c.relation, c.alias, c.value, id, false);
    if (!w.unchanged) this.event(def, 'update', key, w.row, pick(w.row, Object.keys(values)), w.version, id, parent);
    else if (this.changes.length > mark) return this.touch(def, key, w.row, id, parent);
    return { ...w, key };
  }

  /** A row whose own columns stay but rows under it changed: its version bumped, an `update` event with `delta` {}. */
  async touch(def: CollectionDef, key: Key, row: Row, id: string, parent: string | null): Promise<TreeWritten> {
    const version = await relatedRows.touch(this.db, def, key);
    this.event(def, 'update', key, row, {}, version, id, parent);
    return { row, version, key };
  }

  /** Deletes rows (already read and locked): each a `delete` event whose `data` is the row's last state. */
  async remove(def: CollectionDef, rows: Row[], parent: string | null): Promise<void> {
    if (rows.length === 0) return;
    this.allowed(def.collection, 'delete');
    for (let i = 0; i < rows.length; i++) this.count(parent);
    const keys = rows.map((r) => r[def.primaryKey]);
    const deleted = new Map((await itemsRepository.delete(this.db, def, keys).catch(mapWriteError)).map((w) => [String(w.row[def.primaryKey]), w.version]));
    for (const row of rows) {
      const key = row[def.primaryKey] as Key;
      this.event(def, 'delete', key, row, null, deleted.get(String(key))!, randomUUID(), parent);
    }
  }

  /** Whether a row with this key exists (locked when it does). */
  private async exists(def: CollectionDef, key: Key) {
    return (await itemsRepository.selectForUpdate(this.db, def, [key])).length > 0;
  }

  /** A many-to-one (or many-to-any) object: the related row updated when its key exists, created otherwise; its key. */
  private async parentKey(r: RelationDef, value: Payload, own: Payload, child: string): Promise<unknown> {
    const target = r.related_collection ?? anyTarget(r, own);
    const def = await this.collection(target);
    const key = value[def.primaryKey] == null ? undefined : primaryKeyValue(def, value[def.primaryKey]);
    if (key !== undefined && (await this.exists(def, key))) {
      const { [def.primaryKey]: _key, ...rest } = value;
      await this.update(def, key, rest, child);
      return r.related_collection === null ? String(key) : key;
    }
    const created = await this.create(def, value, child);
    return r.related_collection === null ? String(created.key) : created.key;
  }

  /** An alias field's value: children created, linked, updated; those left out (a list) or named in `delete` unlinked or deleted. */
  private async children(def: CollectionDef, key: Key, r: RelationDef, alias: string, value: unknown, id: string, creating: boolean) {
    const child = await this.collection(r.collection);
    const pk = child.primaryKey;
    const changes = childChanges(alias, value);
    const deselect = async (rows: Row[]) => {
      if (r.meta.one_deselect_action === 'delete') return this.remove(child, rows, id);
      for (const row of rows) await this.update(child, row[pk] as Key, { [r.field]: null }, id);
    };
    // rows this write takes one by one are locked first, together, in key order: two writes over the same rows
    // in other orders wait for each other instead of deadlocking
    if (changes.kind === 'list') {
      const named = changes.items.map((item) => (isPlainObject(item) ? item[pk] : item)).filter((k) => k != null);
      const current = creating ? [] : await relatedRows.childrenOf(this.db, child, r.field, key, keysOf(child, named));
      await this.namedKeysFirst(child, changes.items);
      const kept = new Set<string>();
      for (const item of changes.items) kept.add(String(await this.child(child, r.field, key, item, id)));
      return deselect(current.filter((row) => !kept.has(String(row[pk]))));
    }
    await this.namedKeysFirst(child, changes.create);
    for (const item of changes.create) await this.create(child, { ...item, [r.field]: key }, id);
    const updates = changes.update.map((item) => {
      const k = item[pk] == null ? undefined : primaryKeyValue(child, item[pk]);
      if (k === undefined) throw errors.invalidPayload(`"${alias}.update" items need their primary key "${pk}"`);
      return { k, item };
    });
    const locked = keysOf(
      child,
      updates.map((u) => u.k),
    );
    if (locked.length > 1) await itemsRepository.lock(this.db, child, locked);
    for (const { k, item } of updates) {
      const { [pk]: _k, ...rest } = item;
      await this.update(child, k, { ...rest, [r.field]: key }, id);
    }
    if (changes.delete.length === 0) return;
    const wanted = new Set(changes.delete.map((k) => String(primaryKeyValue(child, k))));
    const rows = (await relatedRows.childrenOf(this.db, child, r.field, key)).filter((row) => wanted.has(String(row[pk])));
    if (rows.length !== wanted.size) throw errors.forbiddenIn(child.collection, 'update');
    return deselect(rows);
  }

  /** One element of a child list: an object (updated when its key exists, else created) or a key (linked); its key. */
  private async child(def: CollectionDef, fk: string, parentKey: Key, item: unknown, id: string): Promise<Key> {
    const pk = def.primaryKey;
    if (isPlainObject(item)) {
      const k = item[pk] == null ? undefined : primaryKeyValue(def, item[pk]);
      if (k !== undefined && (await this.exists(def, k))) {
        const { [pk]: _k, ...rest } = item;
        await this.update(def, k, { ...rest, [fk]: parentKey }, id);
        return k;
      }
      return (await this.create(def, { ...item, [fk]: parentKey }, id)).key;
    }
    const k = primaryKeyValue(def, item);
    if (k === undefined) throw errors.forbidden();
    await this.update(def, k, { [fk]: parentKey }, id);
    return k;
  }
}

/** The distinct valid keys of `def` among `values` (others are left for the write to refuse). */
function keysOf(def: CollectionDef, values: unknown[]): Key[] {
  const keys = new Map<string, Key>();
  for (const v of values) {
    const k = primaryKeyValue(def, v);
    if (k !== undefined) keys.set(String(k), k);
  }
  return [...keys.values()];
}

/** A many-to-any row names its related collection in `meta.one_collection_field`; it must be one of the allowed ones. */
function anyTarget(r: RelationDef, own: Payload): string {
  const by = r.meta.one_collection_field ?? '';
  const target = own[by];
  const allowed = r.meta.one_allowed_collections;
  if (typeof target !== 'string' || (allowed && !allowed.includes(target))) {
    throw errors.invalidPayload(`"${r.field}" is many-to-any: "${by}" must name one of its collections (${(allowed ?? []).join(', ')})`);
  }
  return target;
}
