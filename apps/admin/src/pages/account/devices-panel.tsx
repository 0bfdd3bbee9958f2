import { useMemo } from 'preact/hooks';
import { api, ok, type Device } from '../../api/client';
import { ConfirmButton } from '../../ui/confirm-button';
import { deviceOf, when } from '../../ui/dates';
import { fieldId } from '../../ui/field';
import { Alert, Empty } from '../../ui/page';
import { Table } from '../../ui/table';
import { useAction } from '../../ui/use-action';
import { useAsync } from '../../ui/use-async';

const HOW: Record<Device['trusted_by'], string> = { login: 'a sign-in', password_reset: 'a password-reset link', invite: 'an invitation link' };

/**
 * The trusted devices (device cookies) of the signed-in user, or — `user` given, admin pages — of that user. A trusted
 * device signs in even while failed sign-ins from elsewhere hold the account's other clients back; forgetting one
 * makes it an ordinary client again. Admins also unlock the user (their failed-login buckets start again).
 */
export function DevicesPanel({ user }: { user?: string }) {
  const heading = useMemo(() => fieldId('devices-h'), []);
  const devices = useAsync(
    async () => (user ? await ok(api.GET('/users/{id}/devices', { params: { path: { id: user } } })) : await ok(api.GET('/users/me/devices'))).data as Device[],
    [user],
  );
  const { notice, error, run: act } = useAction(devices.reload);
  const forget = (d: Device) =>
    act(
      () =>
        ok(
          user
            ? api.DELETE('/users/{id}/devices/{device}', { params: { path: { id: user, device: d.id } } })
            : api.DELETE('/users/me/devices/{device}', { params: { path: { device: d.id } } }),
        ),
      `${deviceOf(d.user_agent)} (${d.ip ?? 'unknown address'}) is no longer trusted.`,
    );
  const unlock = () =>
    act(
      () => ok(api.POST('/users/{id}/unlock', { params: { path: { id: user! } } })),
      'Failed sign-ins are forgotten: this user can sign in from anywhere again.',
    );
  const list = devices.value;
  return (
    <section aria-labelledby={heading}>
      <h2 id={heading}>Trusted devices</h2>
      <p class="hint">
        {user
          ? 'Browsers and clients this user signed in from. Failed sign-ins elsewhere never keep them out.'
          : 'Browsers and clients you signed in from. Failed sign-ins by someone else never keep them out; forget one you no longer use.'}
      </p>
      {notice && <Alert kind="success">{notice}</Alert>}
      {error && <Alert>{error}</Alert>}
      {devices.error && <Alert>{devices.error.message}</Alert>}
      {list?.length === 0 && <Empty>No trusted device yet.</Empty>}
      {list && list.length > 0 && (
        <Table caption="Trusted devices, most recently used first" hideCaption columns={['Device', 'Address', 'Trusted by', 'Last used', 'Actions']}>
          {list.map((d) => (
            <tr key={d.id} data-current={d.current ? 'true' : undefined}>
              <td title={d.user_agent ?? undefined}>
                {deviceOf(d.user_agent)}
                {d.current && <strong> (this browser)</strong>}
              </td>
              <td>{d.ip ?? '—'}</td>
              <td>{HOW[d.trusted_by]}</td>
              <td>{when(d.last_used)}</td>
              <td>
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Forget ${deviceOf(d.user_agent)}, last used ${when(d.last_used)}`}
                  onClick={() => forget(d)}
                >
                  Forget
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      {user && (
        <ConfirmButton
          label="Unlock sign-in"
          question="Forget this user's failed sign-ins (every device and the untrusted ones)?"
          confirmLabel="Yes, unlock"
          onConfirm={unlock}
        />
      )}
    </section>
  );
}
