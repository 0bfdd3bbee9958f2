import { errors } from '@vellum/errors';
import { enqueueOutbox, type OutboxMessage } from '@vellum/outbox';
import type { CollectionDef } from '../domain/collection';
import type { SchemaChange } from '../domain/schema-change';
import type { CollectionsRepository } from './collections.repository';
import { fieldChangeSql } from './field-ddl';
import { Prisma, type Db } from './prisma';
import { ddlTransaction } from './ddl-transaction';

/**
 * How long an ALTER waits for the table's lock: while it waits, every read and write of the collection queues behind
 * it, so a long-running reader makes the change fail (503, try again) instead of stalling the collection.
 */
const LOCK_TIMEOUT = '5s';
const json = (v: Record<string, unknown> | null) => (v === null ? Prisma.DbNull : (v as Prisma.InputJsonValue));

/** PostgreSQL's refusals of a change (existing rows that do not fit it) → 400 naming the field. */
function mapDdlError(e: unknown, change: SchemaChange): never {
  // Prisma reports a raw statement's PostgreSQL error as P2010 with the SQLSTATE in its message.
  const err = e as { code?: string; message?: string };
  const code = err.code === 'P2010' ? /Code: `(\w+)`/.exec(err.message ?? '')?.[1] : err.code;
  const name = change.kind === 'add' || change.kind === 'drop' ? change.field.field : change.kind === 'alter' ? change.after.field : '';
  if (code === '23502') throw errors.invalidPayload(`field "${name}": existing items have no value for it (give it a default, or fill them first)`);
  if (code === '23505') throw errors.invalidPayload(`field "${name}": existing items have the same value (it cannot be unique)`);
  if (code === '55P03') throw errors.serviceUnavailable('items', `collection busy: the change waited ${LOCK_TIMEOUT} for its table; try again`);
  if (code === '42701' || code === 'P2002') throw errors.invalidPayload(`field "${name}" already exists`);
  throw e;
}

/**
 * A collection's schema change: the catalogue row locked (FOR UPDATE waits for in-flight item writes, which hold it
 * FOR SHARE), the change planned on the definition read under that lock, its DDL, catalogue rows and outbox
 * messages in one transaction — nothing applied when any step fails. Item reads and writes load the definition
 * per request, so the next one sees the change.
 */
export class FieldsRepository {
  constructor(
    private readonly prisma: Db,
    private readonly collections: CollectionsRepository,
  ) {}

  async apply(
    collection: string,
    plan: (def: CollectionDef) => SchemaChange,
    record: (change: SchemaChange, after: CollectionDef) => OutboxMessage[],
  ): Promise<CollectionDef | undefined> {
    let change: SchemaChange | undefined;
    try {
      return await ddlTransaction(this.prisma, async (tx) => {
        const found = await tx.$queryRaw<{ name: string }[]>`SELECT "name" FROM "collections" WHERE "name" = ${collection} FOR UPDATE`;
        if (found.length === 0) return undefined;
        const def = (await this.collections.get(collection, tx))!;
        change = plan(def);
        await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
        for (const statement of fieldChangeSql(def, change)) await tx.$executeRawUnsafe(statement);
        if (change.kind === 'add') {
          const sort = def.fields.length + 1;
          const f = change.field;
          await tx.field.create({ data: { collection, field: f.field, type: f.type, sort, schema: f.schema as Prisma.InputJsonValue, meta: json(f.meta) } });
        } else if (change.kind === 'alter') {
          const f = change.after;
          await tx.field.update({ where: { collection_field: { collection, field: f.field } }, data: { type: f.type, schema: f.schema as Prisma.InputJsonValue, meta: json(f.meta) } });
        } else if (change.kind === 'drop') {
          await tx.field.delete({ where: { collection_field: { collection, field: change.field.field } } });
          await tx.relation.deleteMany({ where: { many_collection: collection, many_field: change.field.field } });
        } else {
          await tx.collection.update({ where: { name: collection }, data: { meta: json(change.meta) } });
        }
        const after = (await this.collections.get(collection, tx))!;
        await enqueueOutbox(tx, record(change, after));
        return after;
      });
    } catch (e) {
      if (change) mapDdlError(e, change);
      throw e;
    } finally {
      this.collections.changed();
    }
  }
}
