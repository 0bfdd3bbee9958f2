import type { Collection } from '../../../data/collections';
import { displayLabel } from '../../../data/display';
import type { RelationalField } from '../../../data/relations';
import type { AliasEntry, Key } from './alias-changes';
import { labelsByKey } from './labelled-items';

type Row = Record<string, unknown>;
type Any = Extract<RelationalField, { kind: 'm2a' }>;
const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A row a content version adds (no key yet): a new item, or a link to an existing one, made when it is promoted. */
export interface Pending {
  label: string;
  collection?: string;
  link: boolean;
}

/** An alias field's rows as the item was read with them (`fields=<alias>.*`, as the item page reads a content version). */
export interface Carried {
  entries: AliasEntry[];
  /** The related items already linked (`<collection>/<key>` for a many-to-any). */
  taken: string[];
  pending: Pending[];
}

/** The rows of an alias field the item was read with, when it was (a version's read): undefined otherwise. */
export const carriedOf = (item: unknown, field: string): Row[] | undefined => {
  const v = isRow(item) ? item[field] : undefined;
  return Array.isArray(v) && v.every(isRow) ? v : undefined;
};

/** A one-to-many field's children as the version has them: linked ones by key, the ones it creates. */
export function versionChildren(target: Collection, rows: Row[]): Carried {
  const keyed = rows.filter((r) => r[target.primary_key] != null);
  return {
    entries: keyed.map((r) => ({ kind: 'linked', key: r[target.primary_key] as Key, label: displayLabel(target, r) })),
    taken: keyed.map((r) => String(r[target.primary_key])),
    pending: rows.filter((r) => r[target.primary_key] == null).map((r) => ({ label: displayLabel(target, r), link: false })),
  };
}

/**
 * A many-to-many field's junction rows as the version has them: each linked item by its label (read by key), and the
 * junction rows the version creates, each holding an existing item's key (a link) or a new item.
 */
export async function versionJunctionRows(otherKey: string, target: Collection, jpk: string, rows: Row[]): Promise<Carried> {
  const keys = rows.map((r) => r[otherKey]).filter((k): k is Key => k != null && !isRow(k));
  const labels = await labelsByKey(target, keys);
  const label = (v: unknown) => (isRow(v) ? displayLabel(target, v) : v == null ? `(no ${target.collection})` : (labels.get(String(v)) ?? String(v)));
  const keyed = rows.filter((r) => r[jpk] != null);
  return {
    entries: keyed.map((r) => ({ kind: 'linked', key: r[jpk] as Key, label: label(r[otherKey]) })),
    taken: rows
      .map((r) => r[otherKey])
      .filter((k) => k != null && !isRow(k))
      .map(String),
    pending: rows.filter((r) => r[jpk] == null).map((r) => ({ label: label(r[otherKey]), link: !isRow(r[otherKey]) })),
  };
}

/** The labels of a many-to-any field's linked items, read from each item's own collection, by `<collection>/<key>`. */
export async function anyLabels(f: Any, targets: Collection[], rows: Row[]): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  for (const t of targets) {
    const keys = rows.filter((r) => r[f.collectionField] === t.collection && r[f.otherKey] != null && !isRow(r[f.otherKey])).map((r) => r[f.otherKey] as Key);
    for (const [k, l] of await labelsByKey(t, keys)) labels.set(`${t.collection}/${k}`, l);
  }
  return labels;
}

/** A many-to-any field's junction rows as the version has them (as versionJunctionRows, each item of its collection). */
export async function versionAnyRows(f: Any, targets: Collection[], jpk: string, rows: Row[]): Promise<Carried> {
  const labels = await anyLabels(f, targets, rows);
  const collection = (r: Row) => String(r[f.collectionField] ?? '');
  const label = (r: Row) => {
    const v = r[f.otherKey];
    const t = targets.find((c) => c.collection === collection(r));
    if (isRow(v)) return t ? displayLabel(t, v) : '(new item)';
    return v == null ? '(no item)' : (labels.get(`${collection(r)}/${String(v)}`) ?? String(v));
  };
  const keyed = rows.filter((r) => r[jpk] != null);
  return {
    entries: keyed.map((r) => ({ kind: 'linked', key: r[jpk] as Key, label: label(r), collection: collection(r) })),
    taken: rows.filter((r) => r[f.otherKey] != null && !isRow(r[f.otherKey])).map((r) => `${collection(r)}/${String(r[f.otherKey])}`),
    pending: rows.filter((r) => r[jpk] == null).map((r) => ({ label: label(r), collection: collection(r), link: !isRow(r[f.otherKey]) })),
  };
}

/** The rows a version adds, after the linked ones in an alias list. */
export function PendingRows({ pending }: { pending: Pending[] }) {
  return (
    <>
      {pending.map((e, i) => (
        <li key={`pending-${i}`}>
          {e.label}
          {e.collection && <span class="hint"> ({e.collection})</span>}
          <span class="hint">{e.link ? ' (in this version: linked when it is promoted)' : ' (new in this version: created when it is promoted)'}</span>
        </li>
      ))}
    </>
  );
}
