import { randomUUID } from 'node:crypto';
import type { ItemChangeEvent, VersionCreateRequest, VersionPromoteRequest, VersionUpdateRequest } from '@vellum/contracts';
import { withTransaction } from '@vellum/db';
import { errors } from '@vellum/errors';
import type { Accountability } from '@vellum/http';
import { enqueueOutbox } from '@vellum/outbox';
import { loadCollection } from '../data/catalogue.repository';
import { itemsRepository } from '../data/items.repository';
import type { Queryable } from '../data/items-pool';
import { versionsRepository, type PublishSchedule, type VersionRow } from '../data/versions.repository';
import { permits } from './access-rules';
import { fieldOf } from './collection';
import { collectionDef } from './catalogue-defs';
import { mergeSave } from './versions/version-delta';
import { itemChangeMessage, type ChangeContext } from './item-change';
import type { ItemsDeps } from './items-deps';
import { readItem } from './read-items.use-case';
import { isUuid, readableDelta, versionNotFound } from './read-versions';
import { updateItems } from './update-items.use-case';
import { childChanges, isNested } from './nested/nested-payload';
import { oneToMany } from './relation';
import { refuseKeyChange, validateWrite } from './validate-write';
import { asHashMismatch } from './promote-hash';

/** Keys a version may not take: they name the live item (Directus reserves `main`; `published` is ours). */
export const RESERVED_VERSION_KEYS = new Set(['main', 'published']);

const isUniqueViolation = (e: unknown) => (e as { code?: string } | null)?.code === '23505';

/**
 * Content versions (issue 36, first slice): named drafts of one item. Seeing a version needs read on its
 * collection, creating, renaming, deleting, saving, promoting and scheduling it update (administrators: everything).
 * A version the caller may not see is 403 as an item is; an id no version has is 404 (ids are random uuids).
 */
export class VersionsUseCase {
  constructor(private readonly deps: ItemsDeps) {}

  private may(a: Accountability | undefined, collection: string, action: 'read' | 'update') {
    return this.deps.rules.fields(a, collection, action) !== null;
  }

  /** The version, when the caller may `action` its collection's items (403 otherwise; 404 when there is none). */
  private async version(db: Queryable, a: Accountability | undefined, id: string, action: 'read' | 'update', lock = false): Promise<VersionRow> {
    if (!isUuid(id)) throw versionNotFound(id);
    const v = await versionsRepository.get(db, id, lock);
    if (!v) throw versionNotFound(id);
    if (!this.may(a, v.collection, 'read') || !this.may(a, v.collection, action)) throw errors.forbidden();
    return v;
  }

  /** `POST /versions`: each version of an existing item of a collection with `meta.versioning`; all or none. */
  async create(ctx: ChangeContext, body: VersionCreateRequest[]): Promise<VersionRow[]> {
    const a = ctx.accountability;
    const hashes: string[] = [];
    for (const v of body) {
      if (RESERVED_VERSION_KEYS.has(v.key)) throw errors.invalidPayload(`"${v.key}" is a reserved version key`);
      if (!this.may(a, v.collection, 'update')) throw errors.forbidden();
      const def = await loadCollection(this.deps.pool, v.collection);
      if (!def) throw errors.forbidden();
      if (def.meta?.versioning !== true) throw errors.invalidPayload(`Content Versioning is not enabled for collection "${v.collection}"`);
      // the item must exist and be readable; its version (read by the same statement) is the version's hash
      const { key, version } = await readItem(this.deps, a, v.collection, v.item, { fields: [def.primaryKey] });
      v.item = key;
      hashes.push(String(version));
    }
    return withTransaction(this.deps.pool, async (db) => {
      const out: VersionRow[] = [];
      for (const [i, v] of body.entries()) {
        const row = {
          id: randomUUID(),
          key: v.key,
          name: v.name ?? null,
          collection: v.collection,
          item: v.item,
          hash: hashes[i]!,
          user_created: a?.user ?? null,
        };
        out.push(
          await versionsRepository.insert(db, row, ctx.now).catch((e: unknown) => {
            if (!isUniqueViolation(e)) throw e;
            throw errors.invalidPayload(`Version "${v.key}" already exists for item "${v.item}" in collection "${v.collection}"`);
          }),
        );
      }
      return out;
    });
  }

  /**
   * `PATCH /versions/:id`: `key` and `name` (the same rules for the key as on create), and `publish_at` (+
   * `publish_force`): a scheduled promote as the caller, against the item's hash now; `publish_at: null` cancels it.
   */
  async update(ctx: ChangeContext, id: string, body: VersionUpdateRequest, onScheduled?: () => void): Promise<VersionRow> {
    const a = ctx.accountability;
    const v = await this.version(this.deps.pool, a, id, 'update');
    if (body.key !== undefined && RESERVED_VERSION_KEYS.has(body.key)) throw errors.invalidPayload(`"${body.key}" is a reserved version key`);
    const schedule = body.publish_at === undefined ? {} : await this.schedule(v, a, body.publish_at, body.publish_force ?? false);
    const force = body.publish_at === undefined && body.publish_force !== undefined ? { publish_force: body.publish_force } : {};
    const row = await versionsRepository
      .update(this.deps.pool, id, { key: body.key, name: body.name, ...schedule, ...force }, a?.user ?? null, ctx.now)
      .catch((e: unknown) => {
        if (!isUniqueViolation(e)) throw e;
        throw errors.invalidPayload(`Version "${body.key}" already exists for item "${v.item}" in collection "${v.collection}"`);
      });
    if (!row) throw versionNotFound(id);
    if (row.publish_status === 'scheduled') onScheduled?.();
    return row;
  }

  /** The columns of a schedule at `at` by the caller (who it runs as, the item's hash to check), or of none. */
  private async schedule(v: VersionRow, a: Accountability | undefined, at: string | null, force: boolean): Promise<PublishSchedule> {
    if (at === null)
      return {
        publish_at: null,
        publish_force: false,
        publish_user: null,
        publish_role: null,
        publish_admin: false,
        publish_hash: null,
        publish_status: null,
        publish_error: null,
      };
    return {
      publish_at: new Date(at),
      publish_force: force,
      publish_user: a?.user ?? null,
      publish_role: a?.role ?? null,
      publish_admin: a?.admin ?? false,
      publish_hash: await versionsRepository.mainHash(this.deps.pool, v.collection, v.item),
      publish_status: 'scheduled',
      publish_error: null,
    };
  }

  /** `DELETE /versions/:id`: the version goes, its revisions (in the revisions service) stay and still name it. */
  async delete(ctx: ChangeContext, id: string): Promise<void> {
    await this.version(this.deps.pool, ctx.accountability, id, 'update');
    await versionsRepository.delete(this.deps.pool, id);
  }

  /**
   * `POST /versions/:id/save`: the version's delta becomes the deep merge of its saves; a revision with `version` =
   * this version and data/delta = this save goes through the outbox in the same transaction. The item is not written.
   * Answers the live item with the version's delta laid over it (as Directus).
   */
  async save(ctx: ChangeContext, id: string, data: Record<string, unknown>): Promise<Record<string, unknown>> {
    const a = ctx.accountability;
    if (!isUuid(id)) throw versionNotFound(id);
    await this.deps.history?.admit();
    // one read of the version (locked: saves of one version merge one after the other) and the checks on it; the
    // collection's definition from memory, as a read's (the save writes only the version's delta)
    const saved = await withTransaction(this.deps.pool, async (db) => {
      const v = await this.version(db, a, id, 'update', true);
      const allowed = this.deps.rules.fields(a, v.collection, 'update')!;
      const def = await collectionDef(this.deps, v.collection);
      if (!def) throw errors.forbidden();
      // a save is an edit of the item: never its key, never an item deleted since (the delete waits for this save)
      refuseKeyChange(def, data, v.item);
      if (!(await itemsRepository.holdKey(db, def, v.item))) throw errors.forbidden();
      // the checks of an item update (fields, rights, value types); nested relational data: fields and rights only
      if (!isNested(def, data)) validateWrite(def, data, allowed, 'update');
      for (const [f, value] of Object.entries(data)) {
        // an alias field (one-to-many, many-to-many, many-to-any) takes Directus's list or {create, update, delete}
        const alias = !fieldOf(def, f) && def.relations.length > 0 && oneToMany(def, f);
        if (!fieldOf(def, f) && !alias) throw errors.invalidPayload(`Field "${f}" does not exist in collection "${v.collection}"`);
        if (alias) childChanges(f, value);
        if (!permits(allowed, f)) throw errors.forbidden();
      }
      const delta = await mergeSave(def, v.delta ?? {}, data, (c) => collectionDef(this.deps, c));
      const row = (await versionsRepository.update(db, id, { delta }, a?.user ?? null, ctx.now))!;
      const m = itemChangeMessage(ctx, v.collection, 'update', v.item, data, data);
      (m.payload as ItemChangeEvent).version = v.id; // no item_version: the live item did not change
      await enqueueOutbox(db, [m]);
      return row;
    });
    const { item } = await readItem(this.deps, a, saved.collection, saved.item, {});
    return { ...item, ...((await readableDelta(this.deps, a, saved.collection, saved.delta)) as Record<string, unknown>) };
  }

  /**
   * `GET /versions/:id/compare`: `mainHash` is the item's version (its ETag), the same for every caller; `outdated`
   * when the item was written since the version was made; `current` the delta, `main` the item as the caller reads it.
   */
  async compare(a: Accountability | undefined, id: string) {
    const v = await this.version(this.deps.pool, a, id, 'read');
    const { item, version } = await readItem(this.deps, a, v.collection, v.item, {});
    const mainHash = String(version);
    return { outdated: v.hash !== mainHash, mainHash, current: await readableDelta(this.deps, a, v.collection, v.delta ?? {}), main: item };
  }

  /**
   * `POST /versions/:id/promote`: the delta (or its `fields`) written to the item as a normal update whose own
   * statement checks the item's version against `mainHash` (or `If-Match`): another → 422 VERSION_HASH_MISMATCH with
   * the current hash, nothing applied. Answers the item's key and its new version.
   */
  async promote(ctx: ChangeContext, id: string, body: VersionPromoteRequest, ifMatch: number[] | null): Promise<{ key: unknown; version: number }> {
    const v = await this.version(this.deps.pool, ctx.accountability, id, 'update');
    const hashes = body.mainHash !== undefined ? [body.mainHash] : ifMatch?.map(String);
    if (!hashes?.length) throw errors.invalidPayload('"mainHash" is required (the hash GET /versions/:id/compare answers), or If-Match');
    const delta = v.delta ?? {};
    const data = body.fields ? Object.fromEntries(body.fields.filter((f) => Object.hasOwn(delta, f)).map((f) => [f, delta[f]])) : delta;
    const expected = hashes.filter((h) => /^\d{1,15}$/.test(h)).map(Number);
    if (!expected.length) throw errors.versionHashMismatch(await versionsRepository.mainHash(this.deps.pool, v.collection, v.item));
    try {
      const { keys, versions } = await updateItems(this.deps, { ...ctx, promote: true }, v.collection, [{ key: v.item, data }], expected);
      return { key: keys[0], version: versions[0]! };
    } catch (e) {
      return asHashMismatch(e, this.deps.pool, v.collection, v.item);
    }
  }
}
