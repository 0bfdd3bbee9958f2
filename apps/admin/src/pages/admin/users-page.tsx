import { useMemo, useState } from 'preact/hooks';
import { api, json, ok, type User } from '../../api/client';
import { useRoles, roleOptions } from '../../data/roles';
import { Link } from '../../router/link';
import { Field, Select, fieldId } from '../../ui/field';
import { FilterForm } from '../../ui/filter-form';
import { Alert, Empty, Page } from '../../ui/page';
import { Pager, pageOf } from '../../ui/pager';
import { Table } from '../../ui/table';
import { useAsync } from '../../ui/use-async';
import { NewUserForms } from './new-user-forms';

const LIMIT = 25;
export const STATUSES = ['active', 'invited', 'suspended', 'archived'];

/** Users: search, filter by role and status, paging — all through the /users query language. */
export function UsersPage({ query }: { query: URLSearchParams }) {
  const ids = useMemo(() => ({ search: fieldId('search'), role: fieldId('role'), status: fieldId('status') }), []);
  const roles = useRoles();
  const page = pageOf(query);
  const search = query.get('search') ?? '';
  const role = query.get('role') ?? '';
  const status = query.get('status') ?? '';
  const [draft, setDraft] = useState({ search, role, status });
  const users = useAsync(async () => {
    const filter: Record<string, unknown> = {};
    if (role) filter.role = { _eq: role };
    if (status) filter.status = { _eq: status };
    const r = await ok(
      api.GET('/users', {
        params: {
          query: {
            limit: LIMIT,
            page,
            sort: 'email',
            meta: 'filter_count',
            ...(search ? { search } : {}),
            ...(Object.keys(filter).length ? { filter: json(filter) } : {}),
          },
        },
      }),
    );
    return { list: r.data as User[], count: (r.meta as { filter_count?: number } | undefined)?.filter_count };
  }, [page, search, role, status]);
  const roleName = (id: unknown) => roles.value?.find((r) => r.id === id)?.name ?? '—';

  return (
    <Page title="Users">
      <FilterForm label="Find users" draft={draft}>
        <Field id={ids.search} label="Search users" type="search" value={draft.search} onInput={(e) => setDraft({ ...draft, search: e.currentTarget.value })} />
        <Select
          id={ids.role}
          label="Role"
          options={roleOptions(roles.value, 'Any role')}
          value={draft.role}
          onChange={(e) => setDraft({ ...draft, role: e.currentTarget.value })}
        />
        <Select
          id={ids.status}
          label="Status"
          options={[{ value: '', label: 'Any status' }, ...STATUSES.map((s) => ({ value: s, label: s }))]}
          value={draft.status}
          onChange={(e) => setDraft({ ...draft, status: e.currentTarget.value })}
        />
      </FilterForm>
      {users.error && <Alert>{users.error.message}</Alert>}
      {users.value && users.value.list.length === 0 && <Empty>No user matches.</Empty>}
      {users.value && users.value.list.length > 0 && (
        <Table caption="Users" hideCaption columns={['E-mail', 'Name', 'Role', 'Status']}>
          {users.value.list.map((u) => (
            <tr key={u.id}>
              <td>
                <Link to={`/users/${u.id}`}>{u.email ?? '(no e-mail)'}</Link>
              </td>
              <td>{[u.first_name, u.last_name].filter(Boolean).join(' ') || '—'}</td>
              <td>{roleName(u.role)}</td>
              <td>{u.status}</td>
            </tr>
          ))}
        </Table>
      )}
      <Pager page={page} limit={LIMIT} count={users.value?.count} label="Users" />
      <NewUserForms roles={roles.value} onDone={users.reload} />
    </Page>
  );
}
