import { useMemo, useState } from 'preact/hooks';
import { api, ok, type Role } from '../../api/client';
import { roleOptions } from '../../data/roles';
import { Field, Select, fieldId } from '../../ui/field';
import { placeError } from '../../ui/field-errors';
import { Alert } from '../../ui/page';
import { PASSWORD_POLICY } from '../../ui/new-password-fields';

type Errors = Record<string, string | undefined>;

/** Create a user with a password, or invite one by mail (the invitation link leads to /admin/accept-invite). */
export function NewUserForms({ roles, onDone }: { roles: Role[] | undefined; onDone: () => void }) {
  const ids = useMemo(
    () => ({
      email: fieldId('new-email'),
      password: fieldId('new-password'),
      role: fieldId('new-role'),
      iemail: fieldId('invite-email'),
      irole: fieldId('invite-role'),
    }),
    [],
  );
  const [create, setCreate] = useState({ email: '', password: '', role: '' });
  const [invite, setInvite] = useState({ email: '', role: '' });
  const [createErr, setCreateErr] = useState<Errors>({});
  const [inviteErr, setInviteErr] = useState<Errors>({});
  const [notice, setNotice] = useState<string>();

  const submitCreate = async (e: Event) => {
    e.preventDefault();
    setNotice(undefined);
    try {
      await ok(api.POST('/users', { body: { email: create.email, password: create.password, role: create.role || null, status: 'active' } }));
      setNotice(`User ${create.email} created.`);
      setCreate({ email: '', password: '', role: '' });
      setCreateErr({});
      setInviteErr({});
      onDone();
    } catch (err) {
      const p = placeError(err, ['email', 'password', 'role']);
      setCreateErr(p.field ? { [p.field]: p.message } : { form: p.message });
    }
  };
  const submitInvite = async (e: Event) => {
    e.preventDefault();
    setNotice(undefined);
    if (!invite.role) return setInviteErr({ role: 'Choose the role the new user gets.' });
    try {
      await ok(api.POST('/users/invite', { body: { email: invite.email, role: invite.role } }));
      setNotice(`Invitation sent to ${invite.email}.`);
      setInvite({ email: '', role: '' });
      setInviteErr({});
      setCreateErr({});
      onDone();
    } catch (err) {
      const p = placeError(err, ['email', 'role']);
      setInviteErr(p.field ? { [p.field]: p.message } : { form: p.message });
    }
  };
  return (
    <>
      {notice && <Alert kind="success">{notice}</Alert>}
      <div class="cols">
        <form onSubmit={submitCreate} noValidate aria-labelledby="create-user-h">
          <h2 id="create-user-h">Create a user</h2>
          {createErr.form && <Alert>{createErr.form}</Alert>}
          <Field
            id={ids.email}
            label="E-mail of the new user"
            type="email"
            value={create.email}
            onInput={(e) => setCreate({ ...create, email: e.currentTarget.value })}
            error={createErr.email}
          />
          <Field
            id={ids.password}
            label="Password of the new user"
            type="password"
            autoComplete="new-password"
            hint={PASSWORD_POLICY}
            value={create.password}
            onInput={(e) => setCreate({ ...create, password: e.currentTarget.value })}
            error={createErr.password}
          />
          <Select
            id={ids.role}
            label="Role of the new user"
            options={roleOptions(roles, 'No role (public access only)')}
            value={create.role}
            onChange={(e) => setCreate({ ...create, role: e.currentTarget.value })}
            error={createErr.role}
          />
          <button type="submit">Create user</button>
        </form>
        <form onSubmit={submitInvite} noValidate aria-labelledby="invite-user-h">
          <h2 id="invite-user-h">Invite a user</h2>
          {inviteErr.form && <Alert>{inviteErr.form}</Alert>}
          <Field
            id={ids.iemail}
            label="E-mail to invite"
            type="email"
            value={invite.email}
            onInput={(e) => setInvite({ ...invite, email: e.currentTarget.value })}
            error={inviteErr.email}
          />
          <Select
            id={ids.irole}
            label="Role of the invited user"
            options={roleOptions(roles, 'Choose a role')}
            value={invite.role}
            onChange={(e) => setInvite({ ...invite, role: e.currentTarget.value })}
            error={inviteErr.role}
          />
          <button type="submit">Send invitation</button>
        </form>
      </div>
    </>
  );
}
