import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, json, ok, type Role } from '../../api/client';
import { Select, fieldId } from '../../ui/field';
import { useAsync } from '../../ui/use-async';

/**
 * Delete a role, asked first with the number of users who have it; they can be moved to another role (else they
 * drop to the public role and lose what this one gave them).
 */
export function RoleDelete({
  role,
  roles,
  onDeleted,
  onError,
}: {
  role: Role;
  roles: Role[];
  onDeleted: (moved?: string) => void;
  onError: (m: string) => void;
}) {
  const [asking, setAsking] = useState(false);
  const [moveTo, setMoveTo] = useState('');
  const selectId = useMemo(() => fieldId('move-users'), []);
  const question = useRef<HTMLParagraphElement>(null);
  const users = useAsync(async () => {
    if (!asking) return undefined;
    const r = await ok(api.GET('/users', { params: { query: { filter: json({ role: { _eq: role.id } }), limit: 0, meta: 'filter_count' } } }));
    return (r.meta as { filter_count?: number } | undefined)?.filter_count ?? 0;
  }, [asking, role.id]);
  useEffect(() => {
    if (users.value !== undefined) question.current?.focus();
  }, [users.value]);
  if (!asking)
    return (
      <button type="button" class="secondary" onClick={() => setAsking(true)}>
        Delete {role.name}
      </button>
    );
  if (users.value === undefined) return <span role="status">Counting the users of {role.name}…</span>;
  const n = users.value;
  const others = roles.filter((r) => r.id !== role.id);
  const remove = async () => {
    try {
      const query = moveTo ? { move_users_to: moveTo } : {};
      await ok(api.DELETE('/roles/{id}', { params: { path: { id: String(role.id) }, query: query as never } }));
      setAsking(false);
      onDeleted(moveTo ? others.find((r) => r.id === moveTo)?.name : undefined);
    } catch (err) {
      onError((err as Error).message);
    }
  };
  return (
    <div class="confirm-box">
      <p ref={question} tabIndex={-1}>
        Delete the role {role.name}?{' '}
        {n === 0 ? 'No user has it.' : `${n} ${n === 1 ? 'user has' : 'users have'} it: without a new role they drop to the public role.`}
      </p>
      {n > 0 && (
        <Select
          id={selectId}
          label={`Move the users of ${role.name} to`}
          value={moveTo}
          onChange={(e) => setMoveTo(e.currentTarget.value)}
          options={[{ value: '', label: 'No role (the public role)' }, ...others.map((r) => ({ value: String(r.id), label: String(r.name) }))]}
        />
      )}
      <button type="button" class="danger" onClick={remove}>
        Yes, delete {role.name}
      </button>{' '}
      <button type="button" class="secondary" onClick={() => setAsking(false)}>
        Keep it
      </button>
    </div>
  );
}
