import { createHash } from 'node:crypto';

/**
 * Names for the statements worth preparing. PostgreSQL plans a named statement once per connection; planned each
 * time, a list over the partitioned revisions table costs more with every partition (named, it
 * costs about what the unpartitioned table does). A text is named the
 * second time it is seen among the last `max` distinct texts, so one-off queries prepare nothing. The name is a
 * hash of the text (readers sharing a pool agree on it). Statements of texts that fall out of use stay in a
 * connection until the pool retires it (`createPool`'s lifetime).
 */
export class StatementNames {
  /** text → its name, or null when seen once (insertion order = least recently seen first) */
  private readonly seen = new Map<string, string | null>();
  /** the named statement object made for a statement object (a cached plan keeps its statement) */
  private readonly memo = new WeakMap<object, object>();

  constructor(private readonly max = 200) {}

  /** `sql` with a `name` when its text is worth preparing, else `sql` itself. */
  named<T extends { text: string }>(sql: T): T & { name?: string } {
    const made = this.memo.get(sql) as (T & { name: string }) | undefined;
    if (made) return made;
    const name = this.nameOf(sql.text);
    if (name === undefined) return sql;
    const named = { ...sql, name };
    this.memo.set(sql, named);
    return named;
  }

  private nameOf(text: string): string | undefined {
    const had = this.seen.get(text);
    if (had === undefined) {
      this.seen.set(text, null);
      if (this.seen.size > this.max) this.seen.delete(this.seen.keys().next().value!);
      return undefined;
    }
    const name = had ?? `vellum_${createHash('sha1').update(text).digest('base64url').slice(0, 27)}`;
    this.seen.delete(text);
    this.seen.set(text, name);
    return name;
  }
}
