import { useState } from 'preact/hooks';
import { api, ok, type Role } from '../../api/client';
import { useRoles } from '../../data/roles';
import { Link } from '../../router/link';
import { Alert, Empty, Page } from '../../ui/page';
import { Table } from '../../ui/table';
import { RoleDelete } from './role-delete';
import { RoleForm, type RoleValues } from './role-form';

const body = (v: RoleValues) => ({ name: v.name, description: v.description || null, admin_access: v.admin, app_access: v.app });
const valuesOf = (r: Role): RoleValues => ({
  name: String(r.name),
  description: String(r.description ?? ''),
  admin: !!r.admin_access,
  app: r.app_access !== false,
});

/** Roles: the list, create, edit (name, description, access), delete (asked, with its users moved); each links to its permissions. */
export function RolesPage() {
  const roles = useRoles();
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<string>();
  const [editing, setEditing] = useState<Role>();
  const done = (message: string) => {
    setError(undefined);
    setNotice(message);
    roles.reload();
  };
  return (
    <Page title="Roles">
      {notice && <Alert kind="success">{notice}</Alert>}
      {error && <Alert>{error}</Alert>}
      {roles.error && <Alert>{roles.error.message}</Alert>}
      {roles.value?.length === 0 && <Empty>No role yet.</Empty>}
      {roles.value && roles.value.length > 0 && (
        <Table caption="Roles" hideCaption columns={['Name', 'Description', 'Administrator', 'Actions']}>
          {roles.value.map((r) => (
            <tr key={r.id}>
              <td>{r.name}</td>
              <td>{(r.description as string | null) ?? '—'}</td>
              <td>{r.admin_access ? 'yes' : 'no'}</td>
              <td class="actions">
                <Link to={`/permissions?role=${r.id}`}>Permissions of {r.name}</Link>{' '}
                <button type="button" class="secondary" onClick={() => setEditing(r)}>
                  Edit {r.name}
                </button>{' '}
                {!r.admin_access && (
                  <RoleDelete
                    role={r}
                    roles={roles.value!}
                    onError={setError}
                    onDeleted={(moved) => done(`Role ${r.name} deleted.${moved ? ` Its users now have the role ${moved}.` : ''}`)}
                  />
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
      {editing ? (
        <RoleForm
          key={editing.id}
          title={`Edit the role ${editing.name}`}
          submitLabel="Save role"
          initial={valuesOf(editing)}
          onCancel={() => setEditing(undefined)}
          onSubmit={async (v) => {
            await ok(api.PATCH('/roles/{id}', { params: { path: { id: String(editing.id) } }, body: body(v) }));
            setEditing(undefined);
            done(`Role ${v.name} saved.`);
          }}
        />
      ) : (
        <RoleForm
          title="Create a role"
          submitLabel="Create role"
          initial={{ name: '', description: '', admin: false, app: true }}
          onSubmit={async (v) => {
            await ok(api.POST('/roles', { body: body(v) }));
            done(`Role ${v.name} created.`);
          }}
        />
      )}
    </Page>
  );
}
