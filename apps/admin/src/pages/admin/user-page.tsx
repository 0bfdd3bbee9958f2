import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, ok, type User } from '../../api/client';
import { roleOptions, useRoles } from '../../data/roles';
import { navigate } from '../../router/router';
import { Link } from '../../router/link';
import { Field, Select, fieldId } from '../../ui/field';
import { placeError } from '../../ui/field-errors';
import { ConfirmButton } from '../../ui/confirm-button';
import { Alert, Page } from '../../ui/page';
import { useAsync } from '../../ui/use-async';
import { ApiTokensPanel } from '../account/api-tokens-panel';
import { DevicesPanel } from '../account/devices-panel';
import { SessionsPanel } from '../account/sessions-panel';
import { STATUSES } from './users-page';
import { UserAccessPanel } from './user-access-panel';

/** One user: edit name, role and status (suspending ends every session of the user at once), their sessions and API tokens, or delete. */
export function UserPage({ id }: { id: string }) {
  const ids = useMemo(
    () => ({ email: fieldId('email'), first: fieldId('first-name'), last: fieldId('last-name'), role: fieldId('role'), status: fieldId('status') }),
    [],
  );
  const roles = useRoles();
  const user = useAsync(async () => (await ok(api.GET('/users/{id}', { params: { path: { id } } }))).data as User, [id]);
  const [form, setForm] = useState({ email: '', first_name: '', last_name: '', role: '', status: 'active' });
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [notice, setNotice] = useState<string>();
  useEffect(() => {
    const u = user.value;
    if (u) setForm({ email: u.email ?? '', first_name: u.first_name ?? '', last_name: u.last_name ?? '', role: u.role ?? '', status: u.status ?? 'active' });
  }, [user.value]);

  const save = async (e: Event) => {
    e.preventDefault();
    setNotice(undefined);
    try {
      const before = user.value?.status;
      await ok(
        api.PATCH('/users/{id}', {
          params: { path: { id } },
          body: {
            email: form.email.trim(),
            first_name: form.first_name || null,
            last_name: form.last_name || null,
            role: form.role || null,
            status: form.status as User['status'],
          },
        }),
      );
      setErrors({});
      setNotice(form.status === 'suspended' && before !== 'suspended' ? 'Saved. The user is suspended: their sessions have ended.' : 'Saved.');
      user.reload();
    } catch (err) {
      const p = placeError(err, ['email', 'first_name', 'last_name', 'role', 'status']);
      setErrors(p.field ? { [p.field]: p.message } : { form: p.message });
    }
  };
  const remove = async () => {
    try {
      await ok(api.DELETE('/users/{id}', { params: { path: { id } } }));
      navigate('/users');
    } catch (err) {
      setErrors({ form: (err as Error).message });
    }
  };
  const title = user.value ? `User ${user.value.email ?? id}` : 'User';
  return (
    <Page title={title}>
      <p>
        <Link to="/users">Back to users</Link>
      </p>
      {user.error && <Alert>{user.error.message}</Alert>}
      {notice && <Alert kind="success">{notice}</Alert>}
      {errors.form && <Alert>{errors.form}</Alert>}
      {user.value && (
        <>
          <form onSubmit={save} class="narrow" noValidate>
            <Field
              id={ids.email}
              label="E-mail"
              type="email"
              value={form.email}
              onInput={(e) => setForm({ ...form, email: e.currentTarget.value })}
              error={errors.email}
            />
            <Field
              id={ids.first}
              label="First name"
              value={form.first_name}
              onInput={(e) => setForm({ ...form, first_name: e.currentTarget.value })}
              error={errors.first_name}
            />
            <Field
              id={ids.last}
              label="Last name"
              value={form.last_name}
              onInput={(e) => setForm({ ...form, last_name: e.currentTarget.value })}
              error={errors.last_name}
            />
            <Select
              id={ids.role}
              label="Role"
              options={roleOptions(roles.value, 'No role (public access only)')}
              value={form.role}
              onChange={(e) => setForm({ ...form, role: e.currentTarget.value })}
              error={errors.role}
            />
            <Select
              id={ids.status}
              label="Status"
              options={STATUSES.map((s) => ({ value: s, label: s }))}
              value={form.status}
              onChange={(e) => setForm({ ...form, status: e.currentTarget.value })}
              error={errors.status}
            />
            <p class="hint">Suspending or archiving a user ends all of their sessions at once.</p>
            <button type="submit">Save user</button>
          </form>
          <UserAccessPanel user={user.value} onChanged={user.reload} />
          <SessionsPanel user={id} />
          <DevicesPanel user={id} />
          <ApiTokensPanel user={id} />
          <h2>Delete</h2>
          <ConfirmButton label="Delete user" question={`Delete ${user.value.email} for good?`} confirmLabel="Yes, delete this user" onConfirm={remove} />
        </>
      )}
    </Page>
  );
}
