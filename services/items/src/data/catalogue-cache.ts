import { Client } from 'pg';
import type { Logger } from '@vellum/logger';
import type { CollectionDef } from '../domain/collection';
import { loadCollection, loadCollections } from './catalogue.repository';
import type { Queryable } from './items-pool';

/** The channel the catalogue tables' trigger NOTIFYs on every change (migration `catalogue_notify`). */
export const CATALOGUE_CHANNEL = 'vellum_items_catalogue';

/** Where reads take collection definitions from (ItemsDeps.catalogue). */
export interface CatalogueSource {
  get(db: Queryable, name: string): Promise<CollectionDef | undefined>;
  getMany(db: Queryable, names: string[]): Promise<CollectionDef[]>;
  /** The same source reading from the database (a read's second try). */
  fresh?(): CatalogueSource;
}

/**
 * Collection definitions kept in memory for reads, so a read costs its own statements only (no catalogue statement
 * per collection). Emptied by this process's schema changes as they commit (`invalidate`, before their answer) and by
 * every other process's through the catalogue tables' NOTIFY; while the LISTEN connection is down nothing is kept.
 * A definition another replica changed a moment ago may be used until its notice arrives: a statement it makes
 * invalid fails and is run again on a fresh one (retry-on-schema-change.ts), as is a read it cannot plan.
 */
export class CatalogueCache implements CatalogueSource {
  private readonly defs = new Map<string, CollectionDef>();
  /** Bumped by every invalidation: a load that began before one is not kept. */
  private generation = 0;
  private listening = false;
  private client: Client | undefined;
  private stopped = false;

  /** One definition, from memory or read (and kept); undefined when there is no such collection. */
  async get(db: Queryable, name: string): Promise<CollectionDef | undefined> {
    return this.defs.get(name) ?? this.load(db, name);
  }

  /** Several definitions (those that exist), the missing ones read in one statement. */
  async getMany(db: Queryable, names: string[]): Promise<CollectionDef[]> {
    const loaded = new Map((await this.loadMany(db, names.filter((n) => !this.defs.has(n)))).map((d) => [d.collection, d]));
    return names.map((n) => this.defs.get(n) ?? loaded.get(n)).filter((d): d is CollectionDef => d !== undefined);
  }

  /** The same source reading every definition from the database (and keeping it): a read's second try. */
  fresh(): CatalogueSource {
    return { get: (db, name) => this.load(db, name), getMany: (db, names) => this.loadMany(db, names) };
  }

  /** Read from the database, and kept unless an invalidation came meanwhile. */
  private async load(db: Queryable, name: string): Promise<CollectionDef | undefined> {
    const gen = this.generation;
    const def = await loadCollection(db, name);
    if (def) this.keep(gen, def);
    return def;
  }

  private async loadMany(db: Queryable, names: string[]): Promise<CollectionDef[]> {
    const gen = this.generation;
    const defs = names.length ? await loadCollections(db, names) : [];
    for (const d of defs) this.keep(gen, d);
    return defs;
  }

  private keep(gen: number, def: CollectionDef) {
    if (this.listening && gen === this.generation) this.defs.set(def.collection, def);
  }

  invalidate(): void {
    this.generation++;
    this.defs.clear();
  }

  /** LISTEN for other processes' schema changes; reconnects after `retryMs` when the connection is lost (keeping nothing meanwhile). */
  async listen(o: { connectionString: string; logger: Pick<Logger, 'warn'>; retryMs?: number; channel?: string }): Promise<void> {
    const lost = (c: Client, err: unknown) => {
      if (this.client !== c) return;
      this.client = undefined;
      this.listening = false;
      this.invalidate();
      if (this.stopped) return;
      o.logger.warn({ err }, 'items: catalogue LISTEN connection lost, reading definitions from the database until it is back');
      setTimeout(() => void connect(), o.retryMs ?? 1000).unref();
    };
    const connect = async () => {
      if (this.stopped) return;
      const c = new Client({ connectionString: o.connectionString, application_name: 'vellum-items-catalogue' });
      this.client = c;
      c.on('error', (err) => lost(c, err));
      c.on('end', () => lost(c, new Error('connection ended')));
      c.on('notification', () => this.invalidate());
      try {
        await c.connect();
        await c.query(`LISTEN ${o.channel ?? CATALOGUE_CHANNEL}`);
        this.invalidate(); // whatever changed while not listening
        this.listening = true;
      } catch (err) {
        lost(c, err);
        await c.end().catch(() => undefined);
      }
    };
    await connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listening = false;
    const c = this.client;
    this.client = undefined;
    await c?.end().catch(() => undefined);
  }
}
