import { useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import type { Collection, CollectionField } from '../../data/collections';
import type { RelationalField } from '../../data/relations';
import { ConfirmButton } from '../../ui/confirm-button';
import { Table } from '../../ui/table';
import { EditFieldForm } from './edit-field-form';
import { defaultText } from './field-types';

const yes = (b: boolean | undefined) => (b ? 'yes' : 'no');

/** What removing a column takes away, for the confirmation. */
function lossOf(f: CollectionField, items: number | undefined, m2o: RelationalField | undefined): string {
  const n = items === undefined ? 'every item' : `${items} ${items === 1 ? 'item' : 'items'}`;
  const rel = m2o?.kind === 'm2o' ? ` Its relation to ${m2o.related} goes too.` : '';
  return `Remove the field ${f.field}? Its values in ${n} are deleted for good (the revisions keep them).${rel}`;
}

/** The collection's fields: type, nullability, default, unique, indexed, note; edit or remove each (not the key). */
export function FieldsSection(p: {
  collection: Collection;
  relational: RelationalField[];
  items?: number;
  onChanged: (notice: string) => void;
  onError: (message: string) => void;
}) {
  const { collection: c } = p;
  const [editing, setEditing] = useState<string>();
  const remove = async (f: CollectionField) => {
    try {
      const m2o = p.relational.find((r) => r.kind === 'm2o' && r.field === f.field);
      if (m2o) await ok(api.DELETE('/relations/{collection}/{field}', { params: { path: { collection: c.collection, field: f.field } } }));
      await ok(api.DELETE('/fields/{collection}/{field}', { params: { path: { collection: c.collection, field: f.field } } }));
      p.onChanged(`The field ${f.field} was removed.`);
    } catch (err) {
      p.onError((err as Error).message);
    }
  };
  const edited = c.fields.find((f) => f.field === editing);
  return (
    <section aria-labelledby="fields-h">
      <h2 id="fields-h">Fields</h2>
      <Table caption={`Fields of ${c.collection}`} hideCaption columns={['Field', 'Type', 'Nullable', 'Default', 'Unique', 'Indexed', 'Note', 'Actions']}>
        {c.fields.map((f) => {
          const pk = f.field === c.primary_key;
          return (
            <tr key={f.field}>
              <th scope="row">
                {f.field}
                {pk && <span class="hint"> (primary key)</span>}
              </th>
              <td>{f.type}</td>
              <td>{yes(f.schema?.is_nullable !== false && !pk)}</td>
              <td>{defaultText(f.schema?.default_value) || '—'}</td>
              <td>{yes(f.schema?.is_unique || pk)}</td>
              <td>{yes(f.schema?.is_indexed)}</td>
              <td>{f.meta?.note ?? ''}</td>
              <td>
                {!pk && (
                  <div class="actions">
                    <button type="button" class="secondary" aria-label={`Edit the field ${f.field}`} onClick={() => setEditing(f.field)}>
                      Edit
                    </button>
                    <ConfirmButton
                      label="Remove"
                      ariaLabel={`Remove the field ${f.field}`}
                      question={lossOf(
                        f,
                        p.items,
                        p.relational.find((r) => r.kind === 'm2o' && r.field === f.field),
                      )}
                      confirmLabel={`Yes, remove ${f.field}`}
                      onConfirm={() => remove(f)}
                    />
                  </div>
                )}
              </td>
            </tr>
          );
        })}
      </Table>
      {edited && (
        <EditFieldForm
          key={edited.field}
          collection={c.collection}
          field={edited}
          onDone={(saved) => {
            setEditing(undefined);
            if (saved) p.onChanged(`The field ${edited.field} was saved.`);
          }}
        />
      )}
    </section>
  );
}
