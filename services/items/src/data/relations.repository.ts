import { errors } from '@vellum/errors';
import { enqueueOutbox, type OutboxMessage } from '@vellum/outbox';
import type { CollectionDef } from '../domain/collection';
import type { RelationChange } from '../domain/plan-relation';
import type { RelationDef } from '../domain/relation';
import { toRelationDef } from './catalogue.repository';
import type { CollectionsRepository } from './collections.repository';
import { relationChangeSql } from './relation-ddl';
import { Prisma, type Db } from './prisma';
import { ddlTransaction } from './ddl-transaction';

const LOCK_TIMEOUT = '5s';
const json = (v: Record<string, unknown> | null) => (v === null ? Prisma.DbNull : (v as Prisma.InputJsonValue));

/** PostgreSQL's refusals of a relation (rows whose key has no related row, a busy table) → 400 / 503. */
function mapDdlError(e: unknown, r: RelationDef | undefined): never {
  const err = e as { code?: string; message?: string };
  const code = err.code === 'P2010' ? /Code: `(\w+)`/.exec(err.message ?? '')?.[1] : err.code;
  if (r && code === '23503') throw errors.invalidPayload(`existing items of "${r.collection}" hold keys in "${r.field}" that "${r.related_collection}" does not have`);
  if (code === '55P03') throw errors.serviceUnavailable('items', `collection busy: the change waited ${LOCK_TIMEOUT} for its table; try again`);
  throw e;
}

/** The relations catalogue and the content tables' foreign keys, changed together in one transaction. */
export class RelationsRepository {
  constructor(
    private readonly prisma: Db,
    private readonly collections: CollectionsRepository,
  ) {}

  async list(collection?: string, field?: string): Promise<RelationDef[]> {
    const where = { ...(collection !== undefined ? { many_collection: collection } : {}), ...(field !== undefined ? { many_field: field } : {}) };
    const rows = await this.prisma.relation.findMany({ where, orderBy: [{ many_collection: 'asc' }, { many_field: 'asc' }] });
    return rows.map(toRelationDef);
  }

  /**
   * One change: the catalogue rows of the collections it touches locked (FOR UPDATE waits for in-flight item
   * writes, which hold them FOR SHARE; in name order, so two changes cannot deadlock), the change planned on the
   * definitions read under those locks, its DDL, catalogue row and outbox messages in one transaction.
   */
  async apply(
    names: string[],
    plan: (defs: Map<string, CollectionDef>) => RelationChange,
    record: (change: RelationChange) => OutboxMessage[],
  ): Promise<RelationChange> {
    let change: RelationChange | undefined;
    try {
      return await ddlTransaction(this.prisma, async (tx) => {
        const sorted = [...new Set(names)].sort();
        await tx.$queryRaw`SELECT "name" FROM "collections" WHERE "name" = ANY(${sorted}) ORDER BY "name" FOR UPDATE`;
        const defs = new Map<string, CollectionDef>();
        for (const n of sorted) {
          const d = await this.collections.get(n, tx);
          if (d) defs.set(n, d);
        }
        change = plan(defs);
        await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
        for (const statement of relationChangeSql(change)) await tx.$executeRawUnsafe(statement);
        const r = change.relation;
        const key = { many_collection_many_field: { many_collection: r.collection, many_field: r.field } };
        if (change.kind === 'create') {
          await tx.relation.create({
            data: { many_collection: r.collection, many_field: r.field, one_collection: r.related_collection, meta: json(r.meta), schema: json(r.schema) },
          });
        } else if (change.kind === 'update') {
          await tx.relation.update({ where: key, data: { meta: json(r.meta), schema: json(r.schema) } });
        } else {
          await tx.relation.delete({ where: key });
        }
        await enqueueOutbox(tx, record(change));
        return change;
      });
    } catch (e) {
      mapDdlError(e, change?.relation);
    } finally {
      this.collections.changed();
    }
  }
}
