import { api, ok } from '../../api/client';
import { TokenPasswordPage } from './token-password-page';

/** The page the invitation mail links to (`/admin/accept-invite?token=…`): choose a password, then sign in. */
export function AcceptInvitePage({ token }: { token: string | null }) {
  return (
    <TokenPasswordPage
      title="Accept your invitation"
      token={token}
      submitLabel="Set my password"
      successNotice="Welcome! Your account is ready: sign in with your e-mail and new password."
      messages={{
        expired: 'This invitation has expired. Ask an administrator to invite you again.',
        used: 'This invitation was already accepted. Sign in, or reset your password if you forgot it.',
        invalid: 'This invitation link is not valid. Ask an administrator to invite you again.',
      }}
      send={(t, password) => ok(api.POST('/users/invite/accept', { body: { token: t, password } }))}
    />
  );
}
