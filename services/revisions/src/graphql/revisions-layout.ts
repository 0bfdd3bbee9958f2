import {
  getNullableType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type FieldNode,
  type GraphQLField,
  type GraphQLObjectType,
  type SelectionSetNode,
} from 'graphql';
import type { Layout, LayoutMember } from '@vellum/query';

/** GraphQL type → its fields that are relations of the query language, and the type each leads to. */
export const RELATIONS: Record<string, Record<string, string>> = {
  vellum_revisions: { activity: 'vellum_activity', parent: 'vellum_revisions' },
  vellum_activity: {},
};

/** The scalars a layout writes (serialize-layout.ts), by GraphQL name. */
const SCALARS: Record<string, 'id' | 'string' | 'json'> = { ID: 'id', String: 'string', JSON: 'json' };

/** A list field's selection as the query language's field paths and the layout its page is written with. */
export interface RevisionsLayout {
  fields: string[];
  layout: Layout;
}

/** Per field node of a cached document: its layout, or null when the selection cannot be written as one. */
const layouts = new WeakMap<FieldNode, RevisionsLayout | null>();

/**
 * The layout of a list field (`revisions`, of type `[vellum_revisions!]!`) as the document selects it: plain
 * fields (aliases and `__typename` too) of scalar types ID, String and JSON, and relations of the query language,
 * nested — what the resolvers give and GraphQL serializes, member by member in the selection's order. null for
 * anything else (fragments, directives, a field selected twice under one name, `activity { user { … } }`): the
 * objects path answers those. The field paths are those the object path's resolver plans (subgraph.ts).
 */
export function revisionsLayout(field: FieldNode, def: GraphQLField<unknown, unknown>): RevisionsLayout | null {
  let known = layouts.get(field);
  if (known === undefined) {
    const list = getNullableType(def.type);
    const item = isListType(list) ? getNullableType(list.ofType) : undefined;
    const fields: string[] = [];
    const layout = isObjectType(item) && field.selectionSet ? build(field.selectionSet, item, '', fields) : undefined;
    known = layout && fields.length ? { fields, layout } : null;
    layouts.set(field, known);
  }
  return known;
}

function build(set: SelectionSetNode, type: GraphQLObjectType, prefix: string, paths: string[]): Layout | undefined {
  const out: LayoutMember[] = [];
  const keys = new Set<string>();
  const add = (path: string) => void (paths.includes(path) || paths.push(path));
  for (const sel of set.selections) {
    if (sel.kind !== Kind.FIELD || sel.directives?.length) return undefined;
    const key = (sel.alias ?? sel.name).value;
    if (keys.has(key)) return undefined;
    keys.add(key);
    const name = sel.name.value;
    if (name === '__typename') {
      out.push({ key, text: JSON.stringify(type.name) });
      continue;
    }
    const f = type.getFields()[name];
    if (!f) return undefined;
    const nonNull = isNonNullType(f.type);
    const named = getNullableType(f.type);
    if (isObjectType(named)) {
      if (RELATIONS[type.name]?.[name] !== named.name || !sel.selectionSet) return undefined;
      const before = paths.length;
      const layout = build(sel.selectionSet, named, `${prefix}${name}.`, paths);
      if (!layout) return undefined;
      if (paths.length === before) add(`${prefix}${name}.id`);
      out.push({ key, relation: name, layout, nonNull });
    } else if (isScalarType(named) && Object.hasOwn(SCALARS, named.name)) {
      add(`${prefix}${name}`);
      out.push({ key, field: name, as: SCALARS[named.name]!, nonNull });
    } else return undefined;
  }
  return out;
}
