import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Field, fieldId } from '../../ui/field';
import { placeError } from '../../ui/field-errors';
import { Alert } from '../../ui/page';

export interface RoleValues {
  name: string;
  description: string;
  admin: boolean;
  app: boolean;
}

/** A role's name, description and access: the create form and the edit form. */
export function RoleForm(p: { title: string; submitLabel: string; initial: RoleValues; onSubmit: (v: RoleValues) => Promise<void>; onCancel?: () => void }) {
  const ids = useMemo(() => ({ name: fieldId('role-name'), description: fieldId('role-description'), h: fieldId('role-form') }), []);
  const [form, setForm] = useState(p.initial);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const formRef = useRef<HTMLFormElement>(null);
  // a refused submit puts the focus on the field at fault
  useEffect(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), [errors]);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!form.name.trim()) return setErrors({ name: 'Give the role a name.' });
    try {
      await p.onSubmit({ ...form, name: form.name.trim() });
      setErrors({});
      setForm(p.initial);
    } catch (err) {
      const placed = placeError(err, ['name', 'description']);
      setErrors(placed.field ? { [placed.field]: placed.message } : { form: placed.message });
    }
  };
  return (
    <form ref={formRef} onSubmit={submit} class="narrow" noValidate aria-labelledby={ids.h}>
      <h2 id={ids.h}>{p.title}</h2>
      {errors.form && <Alert>{errors.form}</Alert>}
      <Field id={ids.name} label="Role name" value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} error={errors.name} />
      <Field
        id={ids.description}
        label="Description"
        value={form.description}
        onInput={(e) => setForm({ ...form, description: e.currentTarget.value })}
        error={errors.description}
      />
      <div class="field">
        <label>
          <input type="checkbox" checked={form.admin} onChange={(e) => setForm({ ...form, admin: e.currentTarget.checked })} /> Administrator access
          (everything, no permission needed)
        </label>
        <label>
          <input type="checkbox" checked={form.app} onChange={(e) => setForm({ ...form, app: e.currentTarget.checked })} /> App access (may sign in to this app)
        </label>
      </div>
      <button type="submit">{p.submitLabel}</button>{' '}
      {p.onCancel && (
        <button type="button" class="secondary" onClick={p.onCancel}>
          Cancel
        </button>
      )}
    </form>
  );
}
