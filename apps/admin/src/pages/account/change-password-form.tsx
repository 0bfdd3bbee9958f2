import { useMemo, useState } from 'preact/hooks';
import { api, ApiError, ok } from '../../api/client';
import { Field, fieldId } from '../../ui/field';
import { Alert } from '../../ui/page';
import { NewPasswordFields, newPasswordProblem } from '../../ui/new-password-fields';

/**
 * Change password, the current one required: it is checked by signing in with it again in session mode (the
 * session cookie is renewed; the page never holds a token), then PATCH /users/me sets the new one.
 */
export function ChangePasswordForm({ email }: { email: string }) {
  const id = useMemo(() => fieldId('current-password'), []);
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ current?: string; password?: string; confirm?: string }>({});
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string>();
  const submit = async (e: Event) => {
    e.preventDefault();
    setDone(false);
    setError(undefined);
    const problem = newPasswordProblem(password, confirm);
    if (!current) return setErrors({ current: 'Enter your current password.' });
    if (problem) return setErrors({ [problem.field]: problem.message });
    setErrors({});
    try {
      try {
        await ok(api.POST('/auth/login', { body: { email, password: current, mode: 'session' } }));
      } catch (err) {
        // INVALID_OTP comes only after the password matched (a TFA account): the current session stays.
        if (!(err instanceof ApiError) || err.code !== 'INVALID_OTP') throw err;
      }
    } catch (err) {
      return setErrors({
        current: err instanceof ApiError && err.code === 'INVALID_CREDENTIALS' ? 'The current password is wrong.' : String((err as Error).message),
      });
    }
    try {
      await ok(api.PATCH('/users/me', { body: { password } }));
      setCurrent('');
      setPassword('');
      setConfirm('');
      setDone(true);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'FAILED_VALIDATION') setErrors({ password: `The password does not meet the policy: ${err.message}` });
      else setError((err as Error).message);
    }
  };
  return (
    <form onSubmit={submit} class="narrow" noValidate aria-labelledby="change-password-h">
      <h2 id="change-password-h">Change password</h2>
      {done && <Alert kind="success">Your password is changed.</Alert>}
      {error && <Alert>{error}</Alert>}
      <Field
        id={id}
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={current}
        onInput={(e) => setCurrent(e.currentTarget.value)}
        error={errors.current}
      />
      <NewPasswordFields password={password} confirm={confirm} onPassword={setPassword} onConfirm={setConfirm} errors={errors} />
      <button type="submit">Change password</button>
    </form>
  );
}
