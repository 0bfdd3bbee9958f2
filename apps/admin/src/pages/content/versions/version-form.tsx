import { useState } from 'preact/hooks';
import { placeError } from '../../../ui/field-errors';
import { Field } from '../../../ui/field';
import { Alert } from '../../../ui/page';

/** A version's key and name, for creating one or renaming it; an API refusal shows on the field it concerns. */
export function VersionForm(p: {
  legend: string;
  submitLabel: string;
  initial?: { key: string; name?: string | null };
  onSubmit: (key: string, name: string) => Promise<void>;
  onCancel: () => void;
}) {
  const [key, setKey] = useState(p.initial?.key ?? '');
  const [name, setName] = useState(p.initial?.name ?? '');
  const [errors, setErrors] = useState<{ key?: string; name?: string; form?: string }>({});
  const prefix = p.initial ? 'version-rename' : 'version-new';
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!key.trim()) return setErrors({ key: 'A version needs a key (e.g. draft).' });
    setErrors({});
    try {
      await p.onSubmit(key.trim(), name.trim());
    } catch (err) {
      const placed = placeError(err, ['key', 'name']);
      setErrors(placed.field ? { [placed.field]: placed.message } : { form: placed.message });
    }
  };
  return (
    <form class="version-form" onSubmit={submit} noValidate>
      <fieldset>
        <legend>{p.legend}</legend>
        {errors.form && <Alert>{errors.form}</Alert>}
        <Field
          id={`${prefix}-key`}
          label="Key"
          hint="Letters, digits, - and _; unique for this item (not main or published)."
          value={key}
          error={errors.key}
          onInput={(e) => setKey(e.currentTarget.value)}
        />
        <Field id={`${prefix}-name`} label="Name" value={name} error={errors.name} onInput={(e) => setName(e.currentTarget.value)} />
        <div class="actions">
          <button type="submit">{p.submitLabel}</button>
          <button type="button" class="secondary" onClick={p.onCancel}>
            Cancel
          </button>
        </div>
      </fieldset>
    </form>
  );
}
