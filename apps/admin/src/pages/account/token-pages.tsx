import { useEffect, useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import { TokenPasswordPage } from './token-password-page';

type Kind = 'invite' | 'reset';

/** What each page says, side by side: the invitation's page and the password reset's. */
const TEXT = {
  title: { invite: 'Accept your invitation', reset: 'Choose a new password' },
  submitLabel: { invite: 'Set my password', reset: 'Set the new password' },
  successNotice: {
    invite: 'Welcome! Your account is ready: sign in with your e-mail and new password.',
    reset: 'Your password is changed. Sign in with the new one.',
  },
  expired: { invite: 'This invitation has expired. Ask an administrator to invite you again.', reset: 'This reset link has expired. Request a new one below.' },
  used: {
    invite: 'This invitation was already accepted. Sign in, or reset your password if you forgot it.',
    reset: 'This reset link was already used (or your password changed since). Request a new one below.',
  },
  invalid: {
    invite: 'This invitation link is not valid. Ask an administrator to invite you again.',
    reset: 'This reset link is not valid. Request a new one below.',
  },
} satisfies Record<string, Record<Kind, string>>;

/** Where each page sends the token and the chosen password. */
const SEND = { invite: '/users/invite/accept', reset: '/auth/password/reset' } as const;

/**
 * Opening the link proves the mailbox: the API trusts this browser (a device cookie), so an owner locked out by
 * someone else's failed logins signs in again with the old password if they remember it.
 */
function useTrustThisBrowser(token: string | null): boolean {
  const [trusted, setTrusted] = useState(false);
  useEffect(() => {
    if (token)
      ok(api.POST('/auth/device', { body: { token } })).then(
        () => setTrusted(true),
        () => undefined,
      );
  }, [token]);
  return trusted;
}

function TokenPage({ kind, token }: { kind: Kind; token: string | null }) {
  const text = (key: keyof typeof TEXT) => TEXT[key][kind];
  const trusted = useTrustThisBrowser(token);
  return (
    <TokenPasswordPage
      token={token}
      title={text('title')}
      submitLabel={text('submitLabel')}
      successNotice={text('successNotice')}
      messages={{ expired: text('expired'), used: text('used'), invalid: text('invalid') }}
      send={(t, password) => ok(api.POST(SEND[kind], { body: { token: t, password } }))}
      trustedNotice={
        trusted && kind === 'reset' ? 'This browser is now trusted: if you remember your password after all, you can simply sign in with it.' : undefined
      }
    />
  );
}

/** The page the invitation mail links to (`/admin/accept-invite?token=…`): choose a password, then sign in. */
export const AcceptInvitePage = ({ token }: { token: string | null }) => <TokenPage kind="invite" token={token} />;

/** The page the reset mail links to (`/admin/reset-password?token=…`). */
export const ResetPasswordPage = ({ token }: { token: string | null }) => <TokenPage kind="reset" token={token} />;
