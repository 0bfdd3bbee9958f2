import type { RelationalField } from '../../../data/relations';

type Item = Record<string, unknown>;
export type Key = string | number;

/**
 * A row of an alias list: one already linked (its child, or its junction row), one to link, or one to create;
 * `collection`: the related item's collection (many-to-any).
 */
export type AliasEntry = ({ kind: 'linked'; key: Key } | { kind: 'link'; key: Key } | { kind: 'new'; data: Item }) & { label: string; collection?: string };

/** What the form changed in one alias field: rows to add (link or create), linked rows to unlink. */
export interface AliasEdit {
  added: AliasEntry[];
  removed: Key[];
}

export const noEdit = (): AliasEdit => ({ added: [], removed: [] });

/**
 * An alias field's edit as Directus's `{create, update, delete}`: a one-to-many creates children and links
 * existing ones (their key set to this item); a many-to-many creates junction rows, each holding an existing
 * related item's key or a new related item (a many-to-any's row also names the item's collection, its key as
 * text); `delete` names the linked rows (children, or junction rows) to unlink
 * (the relation's deselect action applies). Undefined when nothing changed.
 */
export function aliasChanges(f: RelationalField, edit: AliasEdit, childKey: string) {
  if (edit.added.length === 0 && edit.removed.length === 0) return undefined;
  const create: Item[] = [];
  const update: Item[] = [];
  for (const e of edit.added) {
    if (f.kind === 'm2a') create.push({ [f.collectionField]: e.collection, [f.otherKey]: e.kind === 'new' ? e.data : String(e.key) });
    else if (f.kind === 'm2m') create.push({ [f.otherKey]: e.kind === 'new' ? e.data : e.key });
    else if (e.kind === 'new') create.push(e.data);
    else update.push({ [childKey]: e.key });
  }
  return { create, update, delete: edit.removed };
}
