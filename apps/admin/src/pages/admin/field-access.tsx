import { useState } from 'preact/hooks';
import { api, ok, type Permission } from '../../api/client';
import type { Collection } from '../../data/collections';
import { Alert } from '../../ui/page';

/** Field selection of each permission: all fields, or the ticked ones. */
export function FieldAccess({ permissions, collections, onSaved }: { permissions: Permission[]; collections: Collection[]; onSaved: () => void }) {
  if (permissions.length === 0) return null;
  return (
    <section aria-labelledby="fields-h">
      <h2 id="fields-h">Fields</h2>
      {permissions.map((p) => (
        <PermissionFields key={p.id} permission={p} collection={collections.find((c) => c.collection === p.collection)} onSaved={onSaved} />
      ))}
    </section>
  );
}

function PermissionFields({ permission, collection, onSaved }: { permission: Permission; collection?: Collection; onSaved: () => void }) {
  const initial = permission.fields ?? ['*'];
  const [all, setAll] = useState(initial.includes('*'));
  const [picked, setPicked] = useState<string[]>(initial.filter((f) => f !== '*'));
  const [message, setMessage] = useState<{ kind: 'success' | 'error'; text: string }>();
  const fields = collection?.fields.map((f) => f.field) ?? [];
  const label = `${permission.action} ${permission.collection}`;
  const save = async (e: Event) => {
    e.preventDefault();
    try {
      await ok(api.PATCH('/permissions/{id}', { params: { path: { id: String(permission.id) } }, body: { fields: all ? ['*'] : picked } }));
      setMessage({ kind: 'success', text: `Fields of ${label} saved.` });
      onSaved();
    } catch (err) {
      setMessage({ kind: 'error', text: (err as Error).message });
    }
  };
  return (
    <form onSubmit={save}>
      <fieldset>
        <legend>Fields for {label}</legend>
        {message && <Alert kind={message.kind}>{message.text}</Alert>}
        <div class="checks">
          <label>
            <input type="checkbox" checked={all} onChange={(e) => setAll(e.currentTarget.checked)} /> All fields ({label})
          </label>
          {!all &&
            fields.map((f) => (
              <label key={f}>
                <input
                  type="checkbox"
                  checked={picked.includes(f)}
                  onChange={(e) => setPicked(e.currentTarget.checked ? [...picked, f] : picked.filter((x) => x !== f))}
                />{' '}
                {f}
              </label>
            ))}
        </div>
        <button type="submit" class="secondary">
          Save fields of {label}
        </button>
      </fieldset>
    </form>
  );
}
