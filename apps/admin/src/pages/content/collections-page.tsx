import { useMemo, useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import { useCollections } from '../../data/collections';
import { useMeOrThrow } from '../../session/session';
import { Link } from '../../router/link';
import { Field, fieldId } from '../../ui/field';
import { placeError } from '../../ui/field-errors';
import { Alert, Empty, Page } from '../../ui/page';

const TYPES = ['string', 'text', 'integer', 'bigInteger', 'float', 'decimal', 'boolean', 'uuid', 'json', 'date', 'dateTime', 'timestamp'];

/** "title string" lines → the Directus field shapes (an integer auto-increment id first). */
function parseFields(text: string): { fields: object[]; problem?: string } {
  const fields: object[] = [{ field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } }];
  for (const line of text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const [field, type = 'string'] = line.split(/\s+/);
    if (!TYPES.includes(type)) return { fields, problem: `Line "${line}": the type must be one of ${TYPES.join(', ')}.` };
    fields.push({ field, type });
  }
  return { fields };
}

/** Collections the signed-in user may see; administrators create new ones. */
export function CollectionsPage() {
  const me = useMeOrThrow();
  const ids = useMemo(() => ({ name: fieldId('collection-name'), fields: fieldId('collection-fields') }), []);
  const collections = useCollections();
  const [form, setForm] = useState({ name: '', fields: 'title string\nbody text' });
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const create = async (e: Event) => {
    e.preventDefault();
    const { fields, problem } = parseFields(form.fields);
    if (problem) return setErrors({ fields: problem });
    try {
      await ok(api.POST('/collections', { body: { collection: form.name.trim(), fields } as never }));
      setErrors({});
      setForm({ name: '', fields: 'title string\nbody text' });
      collections.reload();
    } catch (err) {
      const p = placeError(err, ['collection', 'fields']);
      setErrors(p.field === 'collection' ? { name: p.message } : p.field ? { fields: p.message } : { form: p.message });
    }
  };
  return (
    <Page title="Content">
      {collections.error && <Alert>{collections.error.message}</Alert>}
      {collections.value?.length === 0 && (
        <Empty>
          {me.admin ? 'There is no collection yet. Create the first one below.' : 'Your role may not read any collection yet. Ask an administrator for access.'}
        </Empty>
      )}
      {collections.value && collections.value.length > 0 && (
        <ul aria-label="Collections">
          {collections.value.map((c) => (
            <li key={c.collection}>
              <Link to={`/content/${c.collection}`}>{c.collection}</Link> ({c.fields.length} fields)
            </li>
          ))}
        </ul>
      )}
      {me.admin && (
        <form onSubmit={create} class="narrow" noValidate aria-labelledby="new-collection-h">
          <h2 id="new-collection-h">Create a collection</h2>
          {errors.form && <Alert>{errors.form}</Alert>}
          <Field
            id={ids.name}
            label="Collection name"
            hint="Lower case letters, digits and _; starts with a letter."
            value={form.name}
            onInput={(e) => setForm({ ...form, name: e.currentTarget.value })}
            error={errors.name}
          />
          <div class="field">
            <label for={ids.fields}>Fields</label>
            <p class="hint" id={`${ids.fields}-hint`}>
              One per line: name and type ({TYPES.join(', ')}). An integer id is added.
            </p>
            <textarea
              id={ids.fields}
              rows={5}
              aria-describedby={`${ids.fields}-hint${errors.fields ? ` ${ids.fields}-error` : ''}`}
              aria-invalid={errors.fields ? 'true' : undefined}
              value={form.fields}
              onInput={(e) => setForm({ ...form, fields: e.currentTarget.value })}
            />
            {errors.fields && (
              <p class="error" id={`${ids.fields}-error`}>
                {errors.fields}
              </p>
            )}
          </div>
          <button type="submit">Create collection</button>
        </form>
      )}
    </Page>
  );
}
