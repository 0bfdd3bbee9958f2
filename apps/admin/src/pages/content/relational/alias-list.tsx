import { api, json, ok } from '../../../api/client';
import type { Collection } from '../../../data/collections';
import { displayFields, displayLabel } from '../../../data/display';
import type { RelationalField } from '../../../data/relations';
import { useAsync } from '../../../ui/use-async';
import type { AliasEdit, AliasEntry, Key } from './alias-changes';
import { labelledItems, useLabelledItems } from './labelled-items';
import { LinkPicker } from './link-picker';
import { NewChildToggle } from './new-child-fields';
import { carriedOf, PendingRows, versionChildren, versionJunctionRows, type Carried } from './version-rows';

type Alias = Extract<RelationalField, { kind: 'o2m' | 'm2m' }>;

/** The rows linked to the item now: its children (one-to-many), or its junction rows with the related item's label (many-to-many). */
async function linkedRows(f: Alias, target: Collection, junction: Collection | undefined, parent: Key): Promise<Carried> {
  const filter = { [f.key]: { _eq: parent } };
  if (f.kind === 'o2m') {
    const { list } = await labelledItems(target, { filter, limit: -1 });
    return { entries: list.map((i) => ({ kind: 'linked', ...i })), taken: list.map((i) => String(i.key)), pending: [] };
  }
  const jpk = junction?.primary_key ?? 'id';
  const fields = [jpk, ...[target.primary_key, ...displayFields(target)].map((x) => `${f.otherKey}.${x}`)].join(',');
  const query = { filter: json(filter), fields, limit: -1, sort: jpk };
  const rows = (await ok(api.GET('/items/{collection}', { params: { path: { collection: f.junction }, query } }))).data as Record<string, unknown>[];
  const related = (r: Record<string, unknown>) => (r[f.otherKey] ?? null) as Record<string, unknown> | null;
  return {
    entries: rows.map((r) => ({ kind: 'linked', key: r[jpk] as Key, label: related(r) ? displayLabel(target, related(r)!) : `(no ${target.collection})` })),
    taken: rows
      .map((r) => related(r)?.[target.primary_key])
      .filter((k) => k != null)
      .map(String),
    pending: [],
  };
}

/**
 * An alias field in the item's form: the linked items by label, each unlinkable; link an existing item; create a
 * new one inline. Nothing is written here: the edit goes with the item's save, in one nested request.
 */
export function AliasList(p: {
  f: Alias;
  target: Collection;
  junction?: Collection;
  parent?: Key;
  /** The item as read (a new read re-reads the linked rows). */
  item?: unknown;
  edit: AliasEdit;
  onEdit: (edit: AliasEdit) => void;
  disabled?: boolean;
}) {
  const { f, target, edit } = p;
  const id = `alias-${f.field}`;
  const linked = useAsync(async (): Promise<Carried> => {
    // read with the item (a content version's rows): as the version has them
    const carried = carriedOf(p.item, f.field);
    if (carried && f.kind === 'o2m') return versionChildren(target, carried);
    if (carried && f.kind === 'm2m') return versionJunctionRows(f.otherKey, target, p.junction?.primary_key ?? 'id', carried);
    return p.parent === undefined ? { entries: [], taken: [], pending: [] } : linkedRows(f, target, p.junction, p.parent);
  }, [f.field, p.parent, p.item]);
  const pending = linked.value?.pending ?? [];
  const candidates = useLabelledItems(target, {}, [p.item]);
  const shown = [...(linked.value?.entries ?? []).filter((e) => e.kind === 'linked' && !edit.removed.includes(e.key)), ...edit.added];
  const taken = new Set([...(linked.value?.taken ?? []), ...edit.added.filter((e) => e.kind === 'link').map((e) => String((e as { key: Key }).key))]);
  const free = (candidates.value?.list ?? []).filter((c) => !taken.has(String(c.key)));
  const unlink = (e: AliasEntry, i: number) =>
    e.kind === 'linked'
      ? p.onEdit({ ...edit, removed: [...edit.removed, e.key] })
      : p.onEdit({ ...edit, added: edit.added.filter((_, j) => j !== i - (shown.length - edit.added.length)) });
  const unlinkWord = f.kind === 'o2m' && f.deselect === 'delete' ? 'Remove' : 'Unlink';
  const what = f.kind === 'o2m' ? `items of ${f.child} linked by ${f.key}` : `items of ${f.related} through ${f.junction}`;
  return (
    <fieldset class="alias" aria-describedby={`${id}-hint`}>
      <legend>{f.field}</legend>
      <p class="hint" id={`${id}-hint`}>
        The {what}. Changes are saved with the item.
        {f.kind === 'o2m' && f.deselect === 'delete' ? ` A removed ${f.child} item is deleted on save.` : ''}
      </p>
      {linked.error && <p class="error">{linked.error.message}</p>}
      {linked.loading ? (
        // read again (after a save, or another version): the rows of before would show under the new edits
        <p class="empty" aria-busy="true">
          Reading the linked items…
        </p>
      ) : shown.length === 0 && pending.length === 0 ? (
        <p class="empty">None linked.</p>
      ) : (
        <ul aria-label={`${f.field} of this item`}>
          {shown.map((e, i) => (
            <li key={e.kind === 'new' ? `new-${i}` : `${e.kind}-${String(e.key)}`}>
              {e.label}
              {e.kind === 'new' && <span class="hint"> (new: created on save)</span>}
              {e.kind === 'link' && <span class="hint"> (linked on save)</span>}{' '}
              {!p.disabled && (
                <button type="button" class="secondary" aria-label={`${unlinkWord} ${e.label} from ${f.field}`} onClick={() => unlink(e, i)}>
                  {unlinkWord}
                </button>
              )}
            </li>
          ))}
          <PendingRows pending={pending} />
        </ul>
      )}
      {!p.disabled && (
        <>
          <LinkPicker
            id={id}
            collection={target.collection}
            field={f.field}
            free={free}
            onLink={(c) => p.onEdit({ ...edit, added: [...edit.added, { kind: 'link', key: c.key, label: c.label }] })}
          />
          <NewChildToggle
            idPrefix={`${id}-new`}
            target={target}
            skip={f.kind === 'o2m' ? [f.key] : []}
            field={f.field}
            onAdd={(data) => p.onEdit({ ...edit, added: [...edit.added, { kind: 'new', data, label: displayLabel(target, data) }] })}
          />
        </>
      )}
    </fieldset>
  );
}
