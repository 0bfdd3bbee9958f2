import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Collection, CollectionField } from '../../data/collections';
import type { RelationalField } from '../../data/relations';
import { placeError } from '../../ui/field-errors';
import { Alert } from '../../ui/page';
import { aliasChanges, noEdit, type AliasEdit, type Key } from './relational/alias-changes';
import { AliasList } from './relational/alias-list';
import { AnyList } from './relational/any-list';
import { M2oPicker } from './relational/m2o-picker';
import { inputKind, parseInput, toInput } from './values';

type Item = Record<string, unknown>;

/**
 * A form built from the collection's fields (an auto-increment primary key is not typed in): a many-to-one field
 * picks a related item, an alias field lists its linked items (link, unlink, create inline); the submitted data
 * carries the alias edits in Directus's nested shape, so the item and its relations are written in one request.
 */
export function ItemForm({
  collection,
  item,
  submitLabel,
  onSubmit,
  relational = [],
  collections = [],
  busy = false,
}: {
  collection: Collection;
  item?: Item;
  submitLabel: string;
  /** The collection's relational fields (none: every field is a plain value). */
  relational?: RelationalField[];
  /** The collections the relational fields reach. */
  collections?: Collection[];
  /** Absent: the user may not write here (read-only fields, no button). */
  onSubmit?: (data: Item) => Promise<void>;
  /** The item is being read again (another version chosen, or after a save): no input until it is here, or the
   * values it brings would overwrite what was typed. */
  busy?: boolean;
}) {
  const locked = !onSubmit || busy;
  const editable = collection.fields.filter((f) => !(f.schema?.is_primary_key && f.schema?.has_auto_increment) && !(f.schema?.is_primary_key && item));
  const initial = () => Object.fromEntries(editable.map((f) => [f.field, toInput(f, item?.[f.field])]));
  const [values, setValues] = useState<Record<string, string | boolean>>(initial);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [edits, setEdits] = useState<Record<string, AliasEdit>>({});
  const def = (name: string) => collections.find((c) => c.collection === name);
  const m2o = (f: CollectionField) => relational.find((r) => r.kind === 'm2o' && r.field === f.field && def(r.related));
  const aliases = relational.filter(
    (r): r is Extract<RelationalField, { kind: 'o2m' | 'm2m' }> => (r.kind === 'o2m' || r.kind === 'm2m') && !!def(r.kind === 'o2m' ? r.child : r.related),
  );
  // a many-to-any field offers the allowed collections the caller can see
  const anys = relational
    .filter((r): r is Extract<RelationalField, { kind: 'm2a' }> => r.kind === 'm2a')
    .map((f) => ({ f, targets: f.allowed.map(def).filter((c): c is Collection => !!c) }))
    .filter((a) => a.targets.length > 0);
  // a different item (re-read after a save or restore) replaces the values; not on mount, where it would overwrite
  // what was typed between the first paint and the effect. Before the browser paints (a layout effect): after a
  // plain effect the form showed, for a frame, the old values no longer busy — a version's on the live item.
  const shown = useRef(item);
  useLayoutEffect(() => {
    if (shown.current === item) return;
    shown.current = item;
    setValues(initial());
    setEdits({});
  }, [item]);
  const id = (f: CollectionField) => `item-${collection.collection}-${f.field}`;

  const submit = async (e: Event) => {
    e.preventDefault();
    const data: Item = {};
    const problems: Record<string, string> = {};
    for (const f of editable) {
      const { value, problem } = parseInput(f, values[f.field] ?? '');
      if (problem) problems[f.field] = problem;
      data[f.field] = value;
    }
    for (const a of aliases) {
      const target = def(a.kind === 'o2m' ? a.child : a.related)!;
      const changes = aliasChanges(a, edits[a.field] ?? noEdit(), target.primary_key);
      if (changes) data[a.field] = changes;
    }
    for (const { f } of anys) {
      const changes = aliasChanges(f, edits[f.field] ?? noEdit(), def(f.junction)?.primary_key ?? 'id');
      if (changes) data[f.field] = changes;
    }
    setErrors(problems);
    if (Object.keys(problems).length || !onSubmit) return;
    try {
      await onSubmit(data);
    } catch (err) {
      const p = placeError(
        err,
        editable.map((f) => f.field),
      );
      setErrors(p.field ? { [p.field]: p.message } : { form: p.message });
    }
  };
  useEffect(() => {
    document.querySelector<HTMLElement>('form.item-form [aria-invalid="true"]')?.focus();
  }, [errors]);

  return (
    <form class="item-form narrow" onSubmit={submit} noValidate aria-busy={busy || undefined}>
      {errors.form && <Alert>{errors.form}</Alert>}
      {editable.map((f) => {
        const kind = inputKind(f.type);
        const err = errors[f.field];
        const common = {
          id: id(f),
          disabled: locked,
          'aria-invalid': err ? ('true' as const) : undefined,
          'aria-describedby': err ? `${id(f)}-error` : undefined,
        };
        const v = values[f.field];
        const rel = m2o(f);
        return (
          <div class="field" key={f.field}>
            {rel?.kind === 'm2o' ? (
              <M2oPicker
                id={id(f)}
                field={f.field}
                related={def(rel.related)!}
                value={String(v ?? '')}
                disabled={locked}
                invalid={!!err}
                describedBy={common['aria-describedby']}
                onChange={(key) => setValues((vs) => ({ ...vs, [f.field]: key }))}
              />
            ) : kind === 'checkbox' ? (
              <label>
                <input
                  type="checkbox"
                  {...common}
                  checked={v === true}
                  onChange={(e) => {
                    const checked = e.currentTarget.checked;
                    setValues((vs) => ({ ...vs, [f.field]: checked }));
                  }}
                />{' '}
                {f.field}
              </label>
            ) : (
              <>
                <label for={id(f)}>
                  {f.field} <span class="hint">({f.type})</span>
                </label>
                {kind === 'textarea' ? (
                  <textarea
                    rows={4}
                    {...common}
                    value={String(v ?? '')}
                    onInput={(e) => {
                      const value = e.currentTarget.value;
                      setValues((vs) => ({ ...vs, [f.field]: value }));
                    }}
                  />
                ) : (
                  <input
                    type={kind}
                    step={kind === 'number' ? 'any' : undefined}
                    {...common}
                    value={String(v ?? '')}
                    onInput={(e) => {
                      const value = e.currentTarget.value;
                      setValues((vs) => ({ ...vs, [f.field]: value }));
                    }}
                  />
                )}
              </>
            )}
            {err && (
              <p class="error" id={`${id(f)}-error`}>
                {err}
              </p>
            )}
          </div>
        );
      })}
      {aliases.map((a) => (
        <AliasList
          key={a.field}
          f={a}
          target={def(a.kind === 'o2m' ? a.child : a.related)!}
          junction={a.kind === 'm2m' ? def(a.junction) : undefined}
          parent={item ? (item[collection.primary_key] as Key) : undefined}
          item={item}
          edit={edits[a.field] ?? noEdit()}
          onEdit={(e) => setEdits((es) => ({ ...es, [a.field]: e }))}
          disabled={locked}
        />
      ))}
      {anys.map(({ f, targets }) => (
        <AnyList
          key={f.field}
          f={f}
          targets={targets}
          junction={def(f.junction)}
          parent={item ? (item[collection.primary_key] as Key) : undefined}
          item={item}
          edit={edits[f.field] ?? noEdit()}
          onEdit={(e) => setEdits((es) => ({ ...es, [f.field]: e }))}
          disabled={locked}
        />
      ))}
      {onSubmit && (
        <button type="submit" disabled={busy} aria-busy={busy || undefined}>
          {submitLabel}
        </button>
      )}
    </form>
  );
}
