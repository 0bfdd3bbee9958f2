import { errors } from '@vellum/errors';
import { enqueueOutbox, type OutboxMessage } from '@vellum/outbox';
import type { CollectionDef } from '../domain/collection';
import { createTableSql, dropTableSql } from './content-schema';
import { toCollectionDef, type RelationRow } from './catalogue.repository';
import { Prisma, type Db } from './prisma';
import { ddlTransaction } from './ddl-transaction';

const json = (v: Record<string, unknown> | null) => (v === null ? Prisma.DbNull : (v as Prisma.InputJsonValue));
/**
 * Schema changes are rare admin operations that take table locks: they may wait for a pool connection and run
 * longer than Prisma's defaults (2 s / 5 s, after which the request would end in a 503) on a busy server.
 */

const INCLUDE = { fields: { orderBy: [{ sort: 'asc' as const }, { field: 'asc' as const }] }, many: true, one: true };

/**
 * A collection's relations, either side, once each (a relation of a collection to itself is both), and the other
 * relation of each junction it is the one side of (whether an alias is many-to-many or many-to-any).
 */
function relationsOf(r: { many: RelationRow[]; one: RelationRow[] }, all: RelationRow[]): RelationRow[] {
  const seen = new Set<string>();
  const partners = r.one.flatMap((x) => {
    const j = (x.meta as { junction_field?: string } | null)?.junction_field;
    return j ? all.filter((o) => o.many_collection === x.many_collection && o.many_field === j) : [];
  });
  return [...r.many, ...r.one, ...partners].filter((x) => !seen.has(`${x.many_collection}.${x.many_field}`) && seen.add(`${x.many_collection}.${x.many_field}`));
}

/** The catalogue (Prisma) and the collections' tables (DDL), changed together in one transaction. */
export class CollectionsRepository {
  /** `changed`: called once a schema change has ended (committed or not): the definitions kept in memory go (catalogue-cache.ts). */
  constructor(
    private readonly prisma: Db,
    readonly changed: () => void = () => undefined,
  ) {}

  async create(def: CollectionDef, record: OutboxMessage[] = []): Promise<CollectionDef> {
    try {
      await ddlTransaction(this.prisma, async (tx) => {
        await tx.collection.create({
          data: {
            name: def.collection,
            primary_key: def.primaryKey,
            meta: json(def.meta),
            schema: json(def.schema),
            fields: {
              create: def.fields.map((f, sort) => ({
                field: f.field,
                type: f.type,
                sort: sort + 1,
                schema: f.schema as Prisma.InputJsonValue,
                meta: json(f.meta),
              })),
            },
          },
        });
        for (const statement of createTableSql(def)) await tx.$executeRawUnsafe(statement);
        if (record.length) await enqueueOutbox(tx, record);
      });
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'P2002' || code === '23505' || code === '42P07') {
        throw errors.invalidPayload(`Collection "${def.collection}" already exists`);
      }
      throw e;
    } finally {
      this.changed();
    }
    return (await this.get(def.collection))!;
  }

  async list(): Promise<CollectionDef[]> {
    const rows = await this.prisma.collection.findMany({ include: INCLUDE, orderBy: { name: 'asc' } });
    const all = rows.flatMap((r) => r.many);
    return rows.map((r) =>
      toCollectionDef(
        { name: r.name, primary_key: r.primary_key, meta: r.meta as Record<string, unknown> | null, schema: r.schema as Record<string, unknown> | null },
        r.fields.map((f) => ({ ...f, schema: f.schema as Record<string, unknown>, meta: f.meta as Record<string, unknown> | null })),
        relationsOf(r, all),
      ),
    );
  }

  /**
   * One collection's definition (inside a transaction when `db` is its client). Its fields and relations are read one
   * statement after the other: Prisma sends an `include`'s queries at once, which on a transaction's one connection
   * queues them in pg (deprecated: pg 9 refuses it; pg 8 printed a DeprecationWarning at the first schema change).
   */
  async get(name: string, db: Pick<Db, 'collection' | 'field' | 'relation'> = this.prisma): Promise<CollectionDef | undefined> {
    const c = await db.collection.findUnique({ where: { name } });
    if (!c) return undefined;
    const fields = await db.field.findMany({ where: { collection: name }, orderBy: INCLUDE.fields.orderBy });
    const many = await db.relation.findMany({ where: { many_collection: name } });
    const one = await db.relation.findMany({ where: { one_collection: name } });
    const r = { ...c, fields, many, one };
    const junctions = [...new Set(r.one.filter((x) => (x.meta as { junction_field?: string } | null)?.junction_field).map((x) => x.many_collection))];
    const all = junctions.length ? await db.relation.findMany({ where: { many_collection: { in: junctions } } }) : [];
    return toCollectionDef(
      { name: r.name, primary_key: r.primary_key, meta: r.meta as Record<string, unknown> | null, schema: r.schema as Record<string, unknown> | null },
      r.fields.map((f) => ({ ...f, schema: f.schema as Record<string, unknown>, meta: f.meta as Record<string, unknown> | null })),
      relationsOf(r, all),
    );
  }

  /** Drops the table, the catalogue rows and the collection's content versions (their revisions stay); false when there was no such collection. */
  async delete(name: string, record: OutboxMessage[] = []): Promise<boolean> {
    try {
      return await this.deleteInTransaction(name, record);
    } finally {
      this.changed();
    }
  }

  private deleteInTransaction(name: string, record: OutboxMessage[]): Promise<boolean> {
    return ddlTransaction(this.prisma, async (tx) => {
      // FOR UPDATE waits for in-flight item writes (they hold the row FOR SHARE).
      const found = await tx.$queryRaw<{ name: string }[]>`SELECT "name" FROM "collections" WHERE "name" = ${name} FOR UPDATE`;
      if (found.length === 0) return false;
      await tx.collection.delete({ where: { name } });
      await tx.contentVersion.deleteMany({ where: { collection: name } });
      await tx.$executeRawUnsafe(dropTableSql(name));
      if (record.length) await enqueueOutbox(tx, record);
      return true;
    });
  }
}
