import { api, ok } from '../../api/client';
import { TokenPasswordPage } from './token-password-page';

/** The page the reset mail links to (`/admin/reset-password?token=…`). */
export function ResetPasswordPage({ token }: { token: string | null }) {
  return (
    <TokenPasswordPage
      title="Choose a new password"
      token={token}
      submitLabel="Set the new password"
      successNotice="Your password is changed. Sign in with the new one."
      messages={{
        expired: 'This reset link has expired. Request a new one below.',
        used: 'This reset link was already used (or your password changed since). Request a new one below.',
        invalid: 'This reset link is not valid. Request a new one below.',
      }}
      send={(t, password) => ok(api.POST('/auth/password/reset', { body: { token: t, password } }))}
    />
  );
}
