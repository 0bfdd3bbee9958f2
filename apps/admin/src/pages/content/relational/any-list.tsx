import { useState } from 'preact/hooks';
import { api, json, ok } from '../../../api/client';
import type { Collection } from '../../../data/collections';
import { displayLabel } from '../../../data/display';
import type { RelationalField } from '../../../data/relations';
import { useAsync } from '../../../ui/use-async';
import type { AliasEdit, AliasEntry, Key } from './alias-changes';
import { useLabelledItems } from './labelled-items';
import { LinkPicker } from './link-picker';
import { NewChildToggle } from './new-child-fields';
import { anyLabels, carriedOf, PendingRows, versionAnyRows, type Carried } from './version-rows';

type Any = Extract<RelationalField, { kind: 'm2a' }>;
type Row = Record<string, unknown>;

/** The item's junction rows, each with its item's label read from its own collection (one request per collection). */
async function linkedRows(f: Any, targets: Collection[], jpk: string, parent: Key): Promise<Carried> {
  const query = { filter: json({ [f.key]: { _eq: parent } }), fields: `${jpk},${f.collectionField},${f.otherKey}`, limit: -1, sort: jpk };
  const rows = (await ok(api.GET('/items/{collection}', { params: { path: { collection: f.junction }, query } }))).data as Row[];
  const labels = await anyLabels(f, targets, rows);
  const at = (r: Row) => `${String(r[f.collectionField])}/${String(r[f.otherKey])}`;
  return {
    entries: rows.map((r) => ({
      kind: 'linked',
      key: r[jpk] as Key,
      collection: String(r[f.collectionField] ?? ''),
      label: labels.get(at(r)) ?? (r[f.otherKey] == null ? '(no item)' : String(r[f.otherKey])),
    })),
    taken: rows.map(at),
    pending: [],
  };
}

/**
 * A many-to-any field in the item's form: the linked items by label with their collection, each unlinkable; link an
 * existing item or create a new one of a chosen allowed collection. Nothing is written here: the edit goes with the
 * item's save, in one nested request (junction rows naming the collection and holding the item).
 */
export function AnyList(p: {
  f: Any;
  targets: Collection[];
  /** The junction collection (its primary key; `id` when unknown). */
  junction?: Collection;
  parent?: Key;
  item?: unknown;
  edit: AliasEdit;
  onEdit: (edit: AliasEdit) => void;
  disabled?: boolean;
}) {
  const { f, targets, edit } = p;
  const id = `alias-${f.field}`;
  const linked = useAsync(async (): Promise<Carried> => {
    const jpk = p.junction?.primary_key ?? 'id';
    // read with the item (a content version's rows): as the version has them
    const carried = carriedOf(p.item, f.field);
    if (carried) return versionAnyRows(f, targets, jpk, carried);
    return p.parent === undefined ? { entries: [], taken: [], pending: [] } : linkedRows(f, targets, jpk, p.parent);
  }, [f.field, p.parent, p.item, targets.length]);
  const pending = linked.value?.pending ?? [];
  const [chosen, setChosen] = useState(targets[0]?.collection ?? '');
  const target = targets.find((t) => t.collection === chosen) ?? targets[0];
  const candidates = useLabelledItems(target, {}, [p.item]);
  const before = (linked.value?.entries ?? []).filter((e) => !edit.removed.includes((e as { key: Key }).key));
  const shown = [...before, ...edit.added];
  const taken = new Set([
    ...(linked.value?.taken ?? []),
    ...edit.added.filter((e) => e.kind === 'link').map((e) => `${e.collection}/${String((e as { key: Key }).key)}`),
  ]);
  const free = (candidates.value?.list ?? []).filter((c) => target && !taken.has(`${target.collection}/${String(c.key)}`));
  const unlink = (e: AliasEntry, i: number) =>
    e.kind === 'linked'
      ? p.onEdit({ ...edit, removed: [...edit.removed, e.key] })
      : p.onEdit({ ...edit, added: edit.added.filter((_, j) => j !== i - before.length) });
  const add = (e: AliasEntry) => p.onEdit({ ...edit, added: [...edit.added, e] });
  return (
    <fieldset class="alias" aria-describedby={`${id}-hint`}>
      <legend>{f.field}</legend>
      <p class="hint" id={`${id}-hint`}>
        Items of {f.allowed.join(', ')} through {f.junction}. Changes are saved with the item; an unlinked item stays, its junction row is deleted.
      </p>
      {linked.error && <p class="error">{linked.error.message}</p>}
      {linked.loading ? (
        <p class="empty" aria-busy="true">
          Reading the linked items…
        </p>
      ) : shown.length === 0 && pending.length === 0 ? (
        <p class="empty">None linked.</p>
      ) : (
        <ul aria-label={`${f.field} of this item`}>
          {shown.map((e, i) => (
            <li key={e.kind === 'new' ? `new-${i}` : `${e.kind}-${String(e.collection)}-${String(e.key)}`}>
              {e.label} <span class="hint">({e.collection})</span>
              {e.kind === 'new' && <span class="hint"> (new: created on save)</span>}
              {e.kind === 'link' && <span class="hint"> (linked on save)</span>}{' '}
              {!p.disabled && (
                <button type="button" class="secondary" aria-label={`Unlink ${e.label} (${e.collection}) from ${f.field}`} onClick={() => unlink(e, i)}>
                  Unlink
                </button>
              )}
            </li>
          ))}
          <PendingRows pending={pending} />
        </ul>
      )}
      {!p.disabled && target && (
        <>
          <div class="field">
            <label for={`${id}-collection`}>Collection to add from</label>
            <select id={`${id}-collection`} value={target.collection} onChange={(e) => setChosen(e.currentTarget.value)}>
              {targets.map((t) => (
                <option key={t.collection} value={t.collection}>
                  {t.collection}
                </option>
              ))}
            </select>
          </div>
          <LinkPicker
            key={target.collection}
            id={id}
            collection={target.collection}
            field={f.field}
            free={free}
            onLink={(c) => add({ kind: 'link', key: c.key, label: c.label, collection: target.collection })}
          />
          <NewChildToggle
            key={`new-${target.collection}`}
            idPrefix={`${id}-new-${target.collection}`}
            target={target}
            skip={[]}
            field={f.field}
            onAdd={(data) => add({ kind: 'new', data, label: displayLabel(target, data), collection: target.collection })}
          />
        </>
      )}
    </fieldset>
  );
}
