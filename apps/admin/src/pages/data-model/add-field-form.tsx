import { useMemo, useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import { Field, Select, fieldId } from '../../ui/field';
import { Alert } from '../../ui/page';
import { FIELD_TYPES, parseDefault } from './field-types';

const EMPTY = { name: '', type: 'string', nullable: true, default: '', unique: false, indexed: false, note: '' };

/** Add a field (a column, added online): name, type, nullable, default, unique, indexed, note. */
export function AddFieldForm({ collection, onAdded }: { collection: string; onAdded: (field: string) => void }) {
  const ids = useMemo(() => ({ name: fieldId('new-field'), type: fieldId('new-type'), def: fieldId('new-default'), note: fieldId('new-note') }), []);
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [busy, setBusy] = useState(false);
  // a refusal is about what was typed: it goes once the form is changed
  const edit = (next: typeof EMPTY) => {
    setForm(next);
    if (errors.form) setErrors({});
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    const d = parseDefault(form.type, form.default.trim());
    if (!form.name.trim()) return setErrors({ field: 'Enter the field’s name.' });
    if (d.problem) return setErrors({ default: d.problem });
    setBusy(true);
    try {
      const schema = { is_nullable: form.nullable, is_unique: form.unique, is_indexed: form.indexed, ...(d.value !== null ? { default_value: d.value } : {}) };
      const body = { field: form.name.trim(), type: form.type, schema, meta: form.note.trim() ? { note: form.note.trim() } : null };
      await ok(api.POST('/fields/{collection}', { params: { path: { collection } }, body: body as never }));
      setErrors({});
      setForm(EMPTY);
      onAdded(body.field);
    } catch (err) {
      setErrors({ form: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="narrow" onSubmit={submit} noValidate aria-labelledby="add-field-h">
      <h2 id="add-field-h">Add a field</h2>
      {errors.form && <Alert>{errors.form}</Alert>}
      <Field
        id={ids.name}
        label="Field name"
        hint="Lower case letters, digits and _; starts with a letter."
        value={form.name}
        error={errors.field}
        onInput={(e) => edit({ ...form, name: e.currentTarget.value })}
      />
      <Select
        id={ids.type}
        label="Type"
        value={form.type}
        options={FIELD_TYPES.map((t) => ({ value: t, label: t }))}
        onChange={(e) => edit({ ...form, type: e.currentTarget.value })}
      />
      <Field
        id={ids.def}
        label="Default value"
        hint="Empty: none. Existing items get it at once (no table rewrite)."
        value={form.default}
        error={errors.default}
        onInput={(e) => edit({ ...form, default: e.currentTarget.value })}
      />
      <div class="checks">
        <label>
          <input type="checkbox" checked={form.nullable} onChange={(e) => edit({ ...form, nullable: e.currentTarget.checked })} /> May be empty (nullable)
        </label>
        <label>
          <input type="checkbox" checked={form.unique} onChange={(e) => edit({ ...form, unique: e.currentTarget.checked })} /> Unique
        </label>
        <label>
          <input type="checkbox" checked={form.indexed} onChange={(e) => edit({ ...form, indexed: e.currentTarget.checked })} /> Indexed
        </label>
      </div>
      <Field id={ids.note} label="Note" value={form.note} onInput={(e) => edit({ ...form, note: e.currentTarget.value })} />
      <button type="submit" disabled={busy}>
        Add field
      </button>
    </form>
  );
}
