import { api, json, ok } from '../../../api/client';
import type { Collection } from '../../../data/collections';
import { displayFields, displayLabel } from '../../../data/display';
import type { RelationalField } from '../../../data/relations';
import { useAsync } from '../../../ui/use-async';
import type { AliasEdit, AliasEntry, Key } from './alias-changes';
import { labelledItems, useLabelledItems } from './labelled-items';
import { LinkPicker } from './link-picker';
import { NewChildToggle } from './new-child-fields';

type Alias = Extract<RelationalField, { kind: 'o2m' | 'm2m' }>;

/** The rows linked to the item now: its children (one-to-many), or its junction rows with the related item's label (many-to-many). */
async function linkedRows(f: Alias, target: Collection, junction: Collection | undefined, parent: Key): Promise<{ entries: AliasEntry[]; targets: Key[] }> {
  const filter = { [f.key]: { _eq: parent } };
  if (f.kind === 'o2m') {
    const { list } = await labelledItems(target, { filter, limit: -1 });
    return { entries: list.map((i) => ({ kind: 'linked', ...i })), targets: list.map((i) => i.key) };
  }
  const jpk = junction?.primary_key ?? 'id';
  const fields = [jpk, ...[target.primary_key, ...displayFields(target)].map((x) => `${f.otherKey}.${x}`)].join(',');
  const query = { filter: json(filter), fields, limit: -1, sort: jpk };
  const rows = (await ok(api.GET('/items/{collection}', { params: { path: { collection: f.junction }, query } }))).data as Record<string, unknown>[];
  const related = (r: Record<string, unknown>) => (r[f.otherKey] ?? null) as Record<string, unknown> | null;
  return {
    entries: rows.map((r) => ({ kind: 'linked', key: r[jpk] as Key, label: related(r) ? displayLabel(target, related(r)!) : `(no ${target.collection})` })),
    targets: rows.map((r) => related(r)?.[target.primary_key] as Key).filter((k) => k != null),
  };
}

/**
 * The rows of a one-to-many field the item was read with (`fields=<alias>.*`, as the item page reads a content
 * version): the children as the version has them — linked ones by key, and the ones it creates (no key yet).
 */
function carriedRows(target: Collection, rows: Record<string, unknown>[]): { entries: AliasEntry[]; targets: Key[]; pending: string[] } {
  const keyed = rows.filter((r) => r[target.primary_key] != null);
  return {
    entries: keyed.map((r) => ({ kind: 'linked', key: r[target.primary_key] as Key, label: displayLabel(target, r) })),
    targets: keyed.map((r) => r[target.primary_key] as Key),
    pending: rows.filter((r) => r[target.primary_key] == null).map((r) => displayLabel(target, r)),
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
  const carried = f.kind === 'o2m' ? (p.item as Record<string, unknown> | undefined)?.[f.field] : undefined;
  const linked = useAsync(async () => {
    if (Array.isArray(carried)) return carriedRows(target, carried as Record<string, unknown>[]);
    return p.parent === undefined ? { entries: [], targets: [], pending: [] } : { ...(await linkedRows(f, target, p.junction, p.parent)), pending: [] };
  }, [f.field, p.parent, p.item]);
  const pending = linked.value?.pending ?? [];
  const candidates = useLabelledItems(target, {}, [p.item]);
  const shown = [...(linked.value?.entries ?? []).filter((e) => e.kind === 'linked' && !edit.removed.includes(e.key)), ...edit.added];
  const taken = new Set([...(linked.value?.targets ?? []), ...edit.added.filter((e) => e.kind === 'link').map((e) => (e as { key: Key }).key)].map(String));
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
          {pending.map((label, i) => (
            <li key={`pending-${i}`}>
              {label}
              <span class="hint"> (new in this version: created when it is promoted)</span>
            </li>
          ))}
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
