import type { Plan } from '@vellum/query';
import type { Accountability } from '@vellum/http';
import type { CollectionDef } from './collection';
import type { ItemsDeps } from './items-deps';
import { collectionDef } from './catalogue-defs';
import { childOfParent, embeddable, embeddedRows, withChildrenSql } from './embed-children';
import { aliasRead, childQuery, placeChildren, type AliasRead, type Deep } from './read-children';
import { readPlan, type Children } from './read-items.use-case';

type Item = Record<string, unknown>;

export interface Embedded {
  plans: Plan[];
  /** Each alias's children, from the statement's rows, shaped by their own plan and put on the shaped parents. */
  place(data: Item[], rows: Item[]): void;
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
    place(data, rows) {
      reads.forEach(({ read, child }, i) => placeChildren(def, data, read, plans[i]!.shape(embeddedRows(rows, i)), child));
      if (c.strip) for (const row of data) delete row[def.primaryKey];
    },
  };
}

/** The list statement with its children's statements as aggregate subqueries. */
export const listWithChildren = (plan: Plan, e: Embedded) =>
  withChildrenSql(
    plan.list(),
    e.plans.map((p) => p.list()),
  );
