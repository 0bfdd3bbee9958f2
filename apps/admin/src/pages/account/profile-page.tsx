import type { Me } from '../../session/session';
import { Page } from '../../ui/page';
import { ApiTokensPanel } from './api-tokens-panel';
import { ChangePasswordForm } from './change-password-form';
import { DevicesPanel } from './devices-panel';
import { SessionsPanel } from './sessions-panel';
import { TfaPanel } from './tfa-panel';

/** The signed-in user's own page: who they are, change password, two-factor authentication, sessions, API tokens. */
export function ProfilePage({ me }: { me: Me }) {
  return (
    <Page title="Profile">
      <dl>
        <dt>E-mail</dt>
        <dd>{me.email}</dd>
        <dt>Role</dt>
        <dd>{me.roleName ?? 'none (public access only)'}</dd>
      </dl>
      <div class="cols">
        <ChangePasswordForm email={me.email} />
        <TfaPanel me={me} />
      </div>
      <SessionsPanel />
      <DevicesPanel />
      <ApiTokensPanel />
    </Page>
  );
}
