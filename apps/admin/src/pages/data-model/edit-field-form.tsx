import { useMemo, useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import type { CollectionField } from '../../data/collections';
import { Field, fieldId } from '../../ui/field';
import { Alert } from '../../ui/page';
import { defaultText, parseDefault } from './field-types';

/** Change a field: its default, nullability, note and index (the name and type stay). */
export function EditFieldForm({ collection, field, onDone }: { collection: string; field: CollectionField; onDone: (saved: boolean) => void }) {
  const ids = useMemo(() => ({ def: fieldId('edit-default'), note: fieldId('edit-note') }), []);
  const [form, setForm] = useState({
    default: defaultText(field.schema?.default_value),
    nullable: field.schema?.is_nullable !== false,
    indexed: field.schema?.is_indexed === true,
    note: field.meta?.note ?? '',
  });
  const [errors, setErrors] = useState<{ default?: string; form?: string }>({});
  const submit = async (e: Event) => {
    e.preventDefault();
    const d = parseDefault(field.type, form.default.trim());
    if (d.problem) return setErrors({ default: d.problem });
    try {
      const body = { schema: { default_value: d.value, is_nullable: form.nullable, is_indexed: form.indexed }, meta: { note: form.note.trim() || null } };
      await ok(api.PATCH('/fields/{collection}/{field}', { params: { path: { collection, field: field.field } }, body: body as never }));
      onDone(true);
    } catch (err) {
      setErrors({ form: (err as Error).message });
    }
  };
  return (
    <form class="narrow" onSubmit={submit} noValidate aria-labelledby="edit-field-h">
      <h3 id="edit-field-h">
        Edit the field {field.field} ({field.type})
      </h3>
      {errors.form && <Alert>{errors.form}</Alert>}
      <Field
        id={ids.def}
        label={`Default value of ${field.field}`}
        hint="Empty: none."
        value={form.default}
        error={errors.default}
        onInput={(e) => setForm({ ...form, default: e.currentTarget.value })}
      />
      <div class="checks">
        <label>
          <input type="checkbox" checked={form.nullable} onChange={(e) => setForm({ ...form, nullable: e.currentTarget.checked })} /> May be empty (nullable)
        </label>
        <label>
          <input type="checkbox" checked={form.indexed} onChange={(e) => setForm({ ...form, indexed: e.currentTarget.checked })} /> Indexed
        </label>
      </div>
      <Field id={ids.note} label={`Note on ${field.field}`} value={form.note} onInput={(e) => setForm({ ...form, note: e.currentTarget.value })} />
      <button type="submit">Save field</button>{' '}
      <button type="button" class="secondary" onClick={() => onDone(false)}>
        Cancel
      </button>
    </form>
  );
}
