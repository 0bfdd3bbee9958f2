import { useMemo } from 'preact/hooks';
import { api, ok, type ApiToken } from '../../api/client';
import { useRoles } from '../../data/roles';
import { useMeOrThrow } from '../../session/session';
import { ConfirmButton } from '../../ui/confirm-button';
import { when } from '../../ui/dates';
import { fieldId } from '../../ui/field';
import { Alert, Empty } from '../../ui/page';
import { Table } from '../../ui/table';
import { useAction } from '../../ui/use-action';
import { useAsync } from '../../ui/use-async';
import { ApiTokenForm } from './api-token-form';

/**
 * API tokens of the signed-in user, or — `user` given, admin pages — of that user: the list (never a secret),
 * revoke with confirmation (refused within a second everywhere), and the creation form.
 */
export function ApiTokensPanel({ user }: { user?: string }) {
  const heading = useMemo(() => fieldId('tokens-h'), []);
  const roles = useRoles(useMeOrThrow().admin);
  const tokens = useAsync(
    async () => (user ? await ok(api.GET('/users/{id}/tokens', { params: { path: { id: user } } })) : await ok(api.GET('/users/me/tokens'))).data as ApiToken[],
    [user],
  );
  const roleName = (id: string | null | undefined) => (id ? (roles.value?.find((r) => r.id === id)?.name ?? id) : 'the user’s role');
  const { notice, error, run } = useAction(tokens.reload);
  const revoke = (t: ApiToken) =>
    run(
      () =>
        ok(
          user
            ? api.DELETE('/users/{id}/tokens/{token}', { params: { path: { id: user, token: t.id } } })
            : api.DELETE('/users/me/tokens/{token}', { params: { path: { token: t.id } } }),
        ),
      `Token ${t.name} is revoked.`,
    );
  const list = tokens.value;
  return (
    <section aria-labelledby={heading}>
      <h2 id={heading}>API tokens</h2>
      <p class="hint">
        For scripts and other services: sent as <code>Authorization: Bearer &lt;token&gt;</code>, with the rights of the token’s role.
      </p>
      {notice && <Alert kind="success">{notice}</Alert>}
      {error && <Alert>{error}</Alert>}
      {tokens.error && <Alert>{tokens.error.message}</Alert>}
      {list?.length === 0 && <Empty>No API token yet.</Empty>}
      {list && list.length > 0 && (
        <Table caption="API tokens" hideCaption columns={['Name', 'Prefix', 'Role', 'Expires', 'Last used', 'Actions']}>
          {list.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td>
                <code>{t.prefix}</code>
              </td>
              <td>{roleName(t.role)}</td>
              <td>{t.expires ? when(t.expires) : 'never'}</td>
              <td>{t.last_used ? when(t.last_used) : 'never'}</td>
              <td>
                <ConfirmButton
                  label={`Revoke ${t.name}`}
                  question={`Revoke ${t.name}? What uses it stops working.`}
                  confirmLabel={`Yes, revoke ${t.name}`}
                  onConfirm={() => revoke(t)}
                />
              </td>
            </tr>
          ))}
        </Table>
      )}
      <ApiTokenForm user={user} roles={roles.error ? undefined : roles.value} onCreated={tokens.reload} />
    </section>
  );
}
