import { useMemo, useState } from 'preact/hooks';
import { api, json, ok, type Permission } from '../../api/client';
import { useCollections } from '../../data/collections';
import { roleOptions, useRoles } from '../../data/roles';
import { navigate, withQuery } from '../../router/router';
import { Select, fieldId } from '../../ui/field';
import { Alert, Empty, Page } from '../../ui/page';
import { Table } from '../../ui/table';
import { useAsync } from '../../ui/use-async';
import { FieldAccess } from './field-access';

export const ACTIONS = ['create', 'read', 'update', 'delete'] as const;
/** The public role is `role: null` in a permission; the page names it "public" in its URL. */
const PUBLIC = 'public';

/** The permissions editor: one role (the public role included) × collection × action, with field selection. */
export function PermissionsPage({ query }: { query: URLSearchParams }) {
  const id = useMemo(() => fieldId('perm-role'), []);
  const roles = useRoles();
  const collections = useCollections();
  const role = query.get('role') ?? PUBLIC;
  const roleValue = role === PUBLIC ? null : role;
  const [error, setError] = useState<string>();
  const perms = useAsync(async () => {
    const filter = roleValue === null ? { role: { _null: true } } : { role: { _eq: roleValue } };
    return (await ok(api.GET('/permissions', { params: { query: { filter: json(filter), limit: -1, sort: 'id' } } }))).data as Permission[];
  }, [role]);
  const find = (collection: string, action: string) => perms.value?.find((p) => p.collection === collection && p.action === action);
  const toggle = async (collection: string, action: (typeof ACTIONS)[number], on: boolean) => {
    setError(undefined);
    try {
      const existing = find(collection, action);
      if (on && !existing) await ok(api.POST('/permissions', { body: { role: roleValue, collection, action, fields: ['*'] } }));
      if (!on && existing?.id !== undefined) await ok(api.DELETE('/permissions/{id}', { params: { path: { id: String(existing.id) } } }));
      perms.reload();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const admin = roles.value?.find((r) => r.id === roleValue)?.admin_access;
  const roleLabel = roleValue === null ? 'the public role' : String(roles.value?.find((r) => r.id === roleValue)?.name ?? 'this role');
  return (
    <Page title="Permissions">
      <div class="toolbar">
        <Select
          id={id}
          label="Role"
          options={[{ value: PUBLIC, label: 'Public (no sign-in)' }, ...roleOptions(roles.value)]}
          value={role}
          onChange={(e) => navigate(withQuery({ role: e.currentTarget.value }))}
        />
      </div>
      {error && <Alert>{error}</Alert>}
      {admin && <Alert kind="info">This role has administrator access: it may do everything, whatever is ticked here.</Alert>}
      {collections.value?.length === 0 && <Empty>There is no collection yet: create one under Content first.</Empty>}
      {collections.value && collections.value.length > 0 && perms.value && (
        <>
          <Table caption={`What ${roleLabel} may do in each collection`} columns={['Collection', ...ACTIONS]}>
            {collections.value.map((c) => (
              <tr key={c.collection}>
                <th scope="row">{c.collection}</th>
                {ACTIONS.map((a) => (
                  <td key={a}>
                    <input
                      type="checkbox"
                      aria-label={`${a} ${c.collection}`}
                      checked={!!find(c.collection, a)}
                      onChange={(e) => toggle(c.collection, a, e.currentTarget.checked)}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </Table>
          <FieldAccess permissions={perms.value} collections={collections.value} onSaved={perms.reload} />
        </>
      )}
    </Page>
  );
}
