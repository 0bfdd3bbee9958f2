import { useEffect, useRef, useState } from 'preact/hooks';
import type { Collection, CollectionField } from '../../data/collections';
import { placeError } from '../../ui/field-errors';
import { Alert } from '../../ui/page';
import { inputKind, parseInput, toInput } from './values';

type Item = Record<string, unknown>;

/** A form built from the collection's fields (an auto-increment primary key is not typed in). */
export function ItemForm({
  collection,
  item,
  submitLabel,
  onSubmit,
}: {
  collection: Collection;
  item?: Item;
  submitLabel: string;
  /** Absent: the user may not write here (read-only fields, no button). */
  onSubmit?: (data: Item) => Promise<void>;
}) {
  const editable = collection.fields.filter((f) => !(f.schema?.is_primary_key && f.schema?.has_auto_increment) && !(f.schema?.is_primary_key && item));
  const initial = () => Object.fromEntries(editable.map((f) => [f.field, toInput(f, item?.[f.field])]));
  const [values, setValues] = useState<Record<string, string | boolean>>(initial);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  // a different item (re-read after a save or restore) replaces the values; not on mount, where it would overwrite
  // what was typed between the first paint and the effect
  const shown = useRef(item);
  useEffect(() => {
    if (shown.current === item) return;
    shown.current = item;
    setValues(initial());
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
    <form class="item-form narrow" onSubmit={submit} noValidate>
      {errors.form && <Alert>{errors.form}</Alert>}
      {editable.map((f) => {
        const kind = inputKind(f.type);
        const err = errors[f.field];
        const common = {
          id: id(f),
          disabled: !onSubmit,
          'aria-invalid': err ? ('true' as const) : undefined,
          'aria-describedby': err ? `${id(f)}-error` : undefined,
        };
        const v = values[f.field];
        return (
          <div class="field" key={f.field}>
            {kind === 'checkbox' ? (
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
      {onSubmit && <button type="submit">{submitLabel}</button>}
    </form>
  );
}
