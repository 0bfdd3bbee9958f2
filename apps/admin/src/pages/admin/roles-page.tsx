import { useMemo, useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import { useRoles } from '../../data/roles';
import { Link } from '../../router/link';
import { Field, fieldId } from '../../ui/field';
import { placeError } from '../../ui/field-errors';
import { Alert, Empty, Page } from '../../ui/page';
import { Table } from '../../ui/table';

/** Roles: the list, create (name, administrator access), delete; each links to its permissions. */
export function RolesPage() {
  const ids = useMemo(() => ({ name: fieldId('role-name'), description: fieldId('role-description'), admin: fieldId('role-admin') }), []);
  const roles = useRoles();
  const [form, setForm] = useState({ name: '', description: '', admin: false });
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [notice, setNotice] = useState<string>();
  const create = async (e: Event) => {
    e.preventDefault();
    setNotice(undefined);
    if (!form.name.trim()) return setErrors({ name: 'Give the role a name.' });
    try {
      await ok(api.POST('/roles', { body: { name: form.name.trim(), description: form.description || null, admin_access: form.admin, app_access: true } }));
      setNotice(`Role ${form.name} created.`);
      setForm({ name: '', description: '', admin: false });
      setErrors({});
      roles.reload();
    } catch (err) {
      const p = placeError(err, ['name', 'description']);
      setErrors(p.field ? { [p.field]: p.message } : { form: p.message });
    }
  };
  const remove = async (id: string, name: string) => {
    try {
      await ok(api.DELETE('/roles/{id}', { params: { path: { id } } }));
      setNotice(`Role ${name} deleted.`);
      roles.reload();
    } catch (err) {
      setErrors({ form: (err as Error).message });
    }
  };
  return (
    <Page title="Roles">
      {notice && <Alert kind="success">{notice}</Alert>}
      {errors.form && <Alert>{errors.form}</Alert>}
      {roles.error && <Alert>{roles.error.message}</Alert>}
      {roles.value?.length === 0 && <Empty>No role yet.</Empty>}
      {roles.value && roles.value.length > 0 && (
        <Table caption="Roles" hideCaption columns={['Name', 'Description', 'Administrator', 'Actions']}>
          {roles.value.map((r) => (
            <tr key={r.id}>
              <td>{r.name}</td>
              <td>{(r.description as string | null) ?? '—'}</td>
              <td>{r.admin_access ? 'yes' : 'no'}</td>
              <td>
                <Link to={`/permissions?role=${r.id}`}>Permissions of {r.name}</Link>{' '}
                {!r.admin_access && (
                  <button type="button" class="secondary" onClick={() => remove(String(r.id), String(r.name))}>
                    Delete {r.name}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
      <form onSubmit={create} class="narrow" noValidate aria-labelledby="new-role-h">
        <h2 id="new-role-h">Create a role</h2>
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
        </div>
        <button type="submit">Create role</button>
      </form>
    </Page>
  );
}
