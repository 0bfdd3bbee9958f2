import type { Plan, Sql } from '@vellum/query';
import type { Accountability } from '@vellum/http';
import type { CollectionDef } from './collection';
import type { ItemsDeps } from './items-deps';
import { collectionDef } from './catalogue-defs';
import { childOfParent, childrenText, embeddable, embeddedRows, jsonAgg, withChildrenSql } from './embed-children';
import { aliasRead, childQuery, childrenWindow, placeChildren, type AliasRead, type Deep } from './read-children';
import { readPlan, type Children } from './read-items.use-case';

type Item = Record<string, unknown>;

export interface Embedded {
  plans: Plan[];
  /** Each alias's children, from the statement's rows, shaped by their own plan and put on the shaped parents. */
  place(data: Item[], rows: Item[]): void;
  /**
   * Each alias's children as the JSON text of its value in the answer (embed-children.ts: childrenText), in alias
   * order; undefined when one needs shaping in Node.
   */
  texts: { alias: string; sql: Sql }[] | undefined;
}

/**
 * The children plans of a list whose every alias can be read in its statement (embed-children.ts): each as the
 * caller, with its `deep`, restricted to the current parent row. Undefined when one cannot — or when planning one
 * fails: then the aliases are read apart as before, which also keeps an empty page from asking about its children.
 */
export async function embeddedChildren(deps: ItemsDeps, a: Accountability | undefined, def: CollectionDef, c: Children): Promise<Embedded | undefined> {
  const reads: { read: AliasRead; child: CollectionDef }[] = [];
  for (const [alias, paths] of c.aliases) {
    const read = aliasRead(def, alias, paths, c.deep as Deep);
    const readable = deps.rules.fields(a, read.collection, 'read');
    const child = readable ? await collectionDef(deps, read.collection) : undefined;
    if (!readable || !child || !embeddable(read, child, readable)) return undefined;
    reads.push({ read, child });
  }
  let plans: Plan[];
  try {
    plans = await Promise.all(
      reads.map(
        async ({ read, child }) =>
          (await readPlan(deps, a, child.collection, childQuery(read, child, read.asked), child, { rowFilter: childOfParent(read.fk) })).plan,
      ),
    );
  } catch {
    return undefined;
  }
  return {
    plans,
    texts: textsOf(reads, plans),
    place(data, rows) {
      reads.forEach(({ read, child }, i) => placeChildren(def, data, read, plans[i]!.shape(embeddedRows(rows, i)), child));
      if (c.strip) for (const row of data) delete row[def.primaryKey];
    },
  };
}

/** Embedded.texts: undefined when one alias cannot be (or an invalid `_limit`: the object path answers it, as before). */
function textsOf(reads: { read: AliasRead; child: CollectionDef }[], plans: Plan[]): Embedded['texts'] {
  const texts: NonNullable<Embedded['texts']> = [];
  for (const [i, { read, child }] of reads.entries()) {
    let window;
    try {
      window = childrenWindow(read);
    } catch {
      return undefined;
    }
    const sql = childrenText(plans[i]!.list(), plans[i]!, read, child, window);
    if (!sql) return undefined;
    texts.push({ alias: read.alias, sql });
  }
  return texts;
}

/** The list statement with its children's statements as aggregate subqueries. */
export const listWithChildren = (plan: Plan, e: Embedded) =>
  withChildrenSql(
    plan.list(),
    e.plans.map((p) => jsonAgg(p.list())),
  );

/** The list statement with each alias's children as the JSON text of its value in the answer (Embedded.texts). */
export const listWithChildrenText = (plan: Plan, texts: NonNullable<Embedded['texts']>) =>
  withChildrenSql(
    plan.list(),
    texts.map((t) => t.sql),
  );
