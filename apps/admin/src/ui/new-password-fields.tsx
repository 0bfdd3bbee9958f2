import { useMemo } from 'preact/hooks';
import { Field, fieldId } from './field';

export const PASSWORD_POLICY = 'At least 8 characters and at most 256. Your administrator may require more (the server checks).';

/** The first problem of a new password pair as typed, or undefined (the server's policy is checked on submit). */
export function newPasswordProblem(password: string, confirm: string): { field: 'password' | 'confirm'; message: string } | undefined {
  if (password.length < 8) return { field: 'password', message: 'The password needs at least 8 characters.' };
  if (password.length > 256) return { field: 'password', message: 'The password can have at most 256 characters.' };
  if (password !== confirm) return { field: 'confirm', message: 'The two passwords differ.' };
  return undefined;
}

/** New password + confirmation, with the policy shown and each error tied to its field. */
export function NewPasswordFields(p: {
  password: string;
  confirm: string;
  onPassword: (v: string) => void;
  onConfirm: (v: string) => void;
  errors: { password?: string; confirm?: string };
  label?: string;
}) {
  const ids = useMemo(() => ({ password: fieldId('new-password'), confirm: fieldId('confirm-password') }), []);
  return (
    <>
      <Field
        id={ids.password}
        label={p.label ?? 'New password'}
        type="password"
        autoComplete="new-password"
        required
        hint={PASSWORD_POLICY}
        value={p.password}
        onInput={(e) => p.onPassword(e.currentTarget.value)}
        error={p.errors.password}
      />
      <Field
        id={ids.confirm}
        label="Confirm the new password"
        type="password"
        autoComplete="new-password"
        required
        value={p.confirm}
        onInput={(e) => p.onConfirm(e.currentTarget.value)}
        error={p.errors.confirm}
      />
    </>
  );
}
