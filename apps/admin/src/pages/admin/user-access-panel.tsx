import { useMemo, useState } from 'preact/hooks';
import { api, ok, type User } from '../../api/client';
import { ConfirmButton } from '../../ui/confirm-button';
import { when } from '../../ui/dates';
import { Field, fieldId } from '../../ui/field';
import { placeError } from '../../ui/field-errors';
import { PASSWORD_POLICY } from '../../ui/new-password-fields';
import { Alert } from '../../ui/page';
import { useAction } from '../../ui/use-action';

/**
 * How a user gets in, for an administrator: last access, two-factor (reset when the authenticator is lost), a
 * password reset mail or a new password, the invitation sent again.
 */
export function UserAccessPanel({ user, onChanged }: { user: User; onChanged: () => void }) {
  const ids = useMemo(() => ({ h: fieldId('access-h'), password: fieldId('set-password') }), []);
  const { notice, error, run } = useAction(onChanged);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string>();
  const id = String(user.id);
  const email = String(user.email ?? '');
  const tfa = !!user.tfa_secret;
  const setNewPassword = async (e: Event) => {
    e.preventDefault();
    setPasswordError(undefined);
    try {
      await ok(api.PATCH('/users/{id}', { params: { path: { id } }, body: { password } }));
      setPassword('');
      await run(async () => undefined, `New password set for ${email}. Their sessions have ended.`);
    } catch (err) {
      setPasswordError(placeError(err, ['password']).message);
    }
  };
  return (
    <section aria-labelledby={ids.h}>
      <h2 id={ids.h}>Access</h2>
      {notice && <Alert kind="success">{notice}</Alert>}
      {error && <Alert>{error}</Alert>}
      <dl class="facts">
        <dt>Last access</dt>
        <dd>{user.last_access ? when(user.last_access as string) : 'Never signed in'}</dd>
        <dt>Two-factor authentication</dt>
        <dd>{tfa ? 'On' : 'Off'}</dd>
      </dl>
      <div class="actions">
        {tfa && (
          <ConfirmButton
            label="Reset two-factor authentication"
            question={`Turn two-factor authentication off for ${email}? They sign in with their password and can enrol again.`}
            confirmLabel="Yes, reset it"
            onConfirm={() => run(() => ok(api.POST('/users/{id}/tfa/reset', { params: { path: { id } } })), `Two-factor authentication reset for ${email}.`)}
          />
        )}
        {user.status === 'invited' ? (
          <button
            type="button"
            class="secondary"
            onClick={() => run(() => ok(api.POST('/users/invite', { body: { email, role: String(user.role) } })), `Invitation sent again to ${email}.`)}
          >
            Send the invitation again
          </button>
        ) : (
          <button
            type="button"
            class="secondary"
            onClick={() => run(() => ok(api.POST('/auth/password/request', { body: { email } })), `Password reset mail sent to ${email}.`)}
          >
            Send a password reset mail
          </button>
        )}
      </div>
      {user.status !== 'invited' && (
        <form onSubmit={setNewPassword} class="narrow" noValidate>
          <Field
            id={ids.password}
            label="Set a new password"
            type="password"
            autoComplete="new-password"
            hint={PASSWORD_POLICY}
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
            error={passwordError}
          />
          <button type="submit">Set password</button>
        </form>
      )}
    </section>
  );
}
