import { useMemo } from 'preact/hooks';
import { api, ok, type Session } from '../../api/client';
import { ConfirmButton } from '../../ui/confirm-button';
import { deviceOf, when } from '../../ui/dates';
import { fieldId } from '../../ui/field';
import { Alert, Empty } from '../../ui/page';
import { Table } from '../../ui/table';
import { useAction } from '../../ui/use-action';
import { useAsync } from '../../ui/use-async';

/**
 * The live sessions (one per sign-in, one device each) of the signed-in user, or — `user` given, admin pages —
 * of that user. The current session is marked and stays when the others end (`DELETE /users/me/sessions`); an
 * admin ends all of a user's (`DELETE /users/:id/sessions`). An ended session's tokens stop working within a second.
 */
export function SessionsPanel({ user }: { user?: string }) {
  const heading = useMemo(() => fieldId('sessions-h'), []);
  const sessions = useAsync(
    async () =>
      (user ? await ok(api.GET('/users/{id}/sessions', { params: { path: { id: user } } })) : await ok(api.GET('/users/me/sessions'))).data as Session[],
    [user],
  );
  const { notice, error, run: act } = useAction(sessions.reload);
  const end = (s: Session) =>
    act(
      () =>
        ok(
          user
            ? api.DELETE('/users/{id}/sessions/{session}', { params: { path: { id: user, session: s.id } } })
            : api.DELETE('/users/me/sessions/{session}', { params: { path: { session: s.id } } }),
        ),
      `The session of ${deviceOf(s.user_agent)} (${s.ip ?? 'unknown address'}) is signed out.`,
    );
  const endRest = () =>
    act(
      () => ok(user ? api.DELETE('/users/{id}/sessions', { params: { path: { id: user } } }) : api.DELETE('/users/me/sessions')),
      user ? 'Every session of this user is signed out.' : 'Every other session is signed out. This one stays.',
    );
  const list = sessions.value;
  const others = list?.filter((s) => !s.current) ?? [];
  return (
    <section aria-labelledby={heading}>
      <h2 id={heading}>Sessions</h2>
      <p class="hint">{user ? 'Where this user is signed in.' : 'Where you are signed in: one row per sign-in (browser or device).'}</p>
      {notice && <Alert kind="success">{notice}</Alert>}
      {error && <Alert>{error}</Alert>}
      {sessions.error && <Alert>{sessions.error.message}</Alert>}
      {list?.length === 0 && <Empty>{user ? 'This user is not signed in anywhere.' : 'No session.'}</Empty>}
      {list && list.length > 0 && (
        <Table caption="Sessions, newest first" hideCaption columns={['Device', 'Address', 'Signed in', 'Last used', 'Expires', 'Actions']}>
          {list.map((s) => (
            <SessionRow key={s.id} s={s} own={!user} onEnd={end} />
          ))}
        </Table>
      )}
      {(user ? list && list.length > 0 : others.length > 0) && (
        <ConfirmButton
          label={user ? 'Sign out all sessions' : 'Sign out all other sessions'}
          question={user ? 'Sign this user out everywhere?' : 'Sign out everywhere but here?'}
          confirmLabel={user ? 'Yes, sign out all sessions' : 'Yes, sign out the other sessions'}
          onConfirm={endRest}
        />
      )}
    </section>
  );
}

/** One session: its device, address and times; "Sign out this session" (one's own current one: the top's Sign out). */
function SessionRow({ s, own, onEnd }: { s: Session; own: boolean; onEnd: (s: Session) => void }) {
  return (
    <tr data-current={s.current ? 'true' : undefined}>
      <td title={s.user_agent ?? undefined}>
        {deviceOf(s.user_agent)}
        {s.current && <strong> (this session)</strong>}
      </td>
      <td>{s.ip ?? '—'}</td>
      <td>{when(s.created)}</td>
      <td>{when(s.last_used)}</td>
      <td>{when(s.expires)}</td>
      <td>
        {s.current && own ? (
          'Use “Sign out” at the top'
        ) : (
          <button
            type="button"
            class="secondary"
            aria-label={`Sign out this session (${deviceOf(s.user_agent)}, signed in ${when(s.created)})`}
            onClick={() => onEnd(s)}
          >
            Sign out this session
          </button>
        )}
      </td>
    </tr>
  );
}
