import { useMemo, useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import type { Collection } from '../../data/collections';
import { Field, fieldId } from '../../ui/field';
import { Alert } from '../../ui/page';

/** How items of the collection are named in pickers and lists (`meta.display_template`, e.g. "{{name}} ({{email}})"). */
export function DisplayTemplateForm({ collection: c, onSaved }: { collection: Collection; onSaved: (notice: string) => void }) {
  const id = useMemo(() => fieldId('display-template'), []);
  const [value, setValue] = useState(c.meta?.display_template ?? '');
  const [error, setError] = useState<string>();
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      const body = { meta: { display_template: value.trim() || null } };
      await ok(api.PATCH('/collections/{name}', { params: { path: { name: c.collection } }, body: body as never }));
      onSaved('The display template was saved.');
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form class="narrow" onSubmit={submit} noValidate aria-labelledby="display-h">
      <h2 id="display-h">How items are named</h2>
      {error && <Alert>{error}</Alert>}
      <Field
        id={id}
        label="Display template"
        hint="Fields in double braces, e.g. {{name}} ({{email}}). Empty: the first text field, else the key."
        value={value}
        onInput={(e) => setValue(e.currentTarget.value)}
      />
      <button type="submit">Save display template</button>
    </form>
  );
}
