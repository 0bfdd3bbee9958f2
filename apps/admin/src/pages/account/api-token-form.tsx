import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, ok, type ApiToken, type Role } from '../../api/client';
import { roleOptions } from '../../data/roles';
import { Field, Select, fieldId } from '../../ui/field';
import { placeError } from '../../ui/field-errors';
import { Alert } from '../../ui/page';

/** The API's default API_TOKEN_MAX_TTL (365 days); a smaller one configured there is reported on the field. */
const MAX_DAYS = 365;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/**
 * Create an API token (name, expiry — required —, optional narrower role), for the signed-in user or — `user`
 * given — for that user. The secret is in the creation answer only: it is shown once here, with a copy button.
 */
export function ApiTokenForm({ user, roles, onCreated }: { user?: string; roles?: Role[]; onCreated: () => void }) {
  const ids = useMemo(() => ({ name: fieldId('token-name'), expires: fieldId('token-expires'), role: fieldId('token-role') }), []);
  const [form, setForm] = useState({ name: '', expires: day(90), role: '' });
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [created, setCreated] = useState<ApiToken>();
  const formRef = useRef<HTMLFormElement>(null);
  // After a refused submit, focus goes to the first field in error.
  useEffect(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), [errors]);
  const submit = async (e: Event) => {
    e.preventDefault();
    setCreated(undefined);
    if (!form.name.trim()) return setErrors({ name: 'Give the token a name (what uses it).' });
    if (!form.expires) return setErrors({ expires: 'Choose when the token expires.' });
    // Midnight at the start of the chosen day, in the reader's time zone.
    const body = { name: form.name.trim(), expires: new Date(`${form.expires}T00:00:00`).toISOString(), ...(form.role ? { role: form.role } : {}) };
    try {
      const r = user ? await ok(api.POST('/users/{id}/tokens', { params: { path: { id: user } }, body })) : await ok(api.POST('/users/me/tokens', { body }));
      setErrors({});
      setCreated(r.data);
      setForm({ name: '', expires: day(90), role: '' });
      onCreated();
    } catch (err) {
      const p = placeError(err, ['name', 'expires', 'role']);
      setErrors(p.field ? { [p.field]: p.message } : { form: p.message });
    }
  };
  return (
    <form ref={formRef} onSubmit={submit} class="narrow" noValidate aria-labelledby={`${ids.name}-h`}>
      <h3 id={`${ids.name}-h`}>Create an API token</h3>
      {created && <SecretOnce token={created} onHide={() => setCreated(undefined)} />}
      {errors.form && <Alert>{errors.form}</Alert>}
      <Field id={ids.name} label="Token name" value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} error={errors.name} />
      <Field
        id={ids.expires}
        label="Expires on"
        type="date"
        required
        min={day(1)}
        max={day(MAX_DAYS)}
        hint={`Required. At most ${MAX_DAYS} days ahead (the API's maximum, API_TOKEN_MAX_TTL; the server says so if it is set lower).`}
        value={form.expires}
        onInput={(e) => setForm({ ...form, expires: e.currentTarget.value })}
        error={errors.expires}
      />
      {roles && (
        <Select
          id={ids.role}
          label="Role of the token"
          options={roleOptions(roles, 'The same as the user’s role')}
          value={form.role}
          onChange={(e) => setForm({ ...form, role: e.currentTarget.value })}
          error={errors.role}
        />
      )}
      <button type="submit">Create token</button>
    </form>
  );
}

/** The new token's secret, shown once (it is not stored): focused when it appears, with a copy button. */
function SecretOnce({ token, onHide }: { token: ApiToken; onHide: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  const [copied, setCopied] = useState<string>();
  useEffect(() => box.current?.focus(), [token]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token.token ?? '');
      setCopied('Copied.');
    } catch {
      setCopied('The browser did not allow copying: select the token and copy it by hand.');
    }
  };
  return (
    <div ref={box} tabIndex={-1} class="alert alert-success" role="status">
      <p>
        Token <strong>{token.name}</strong> created. Copy it now: <strong>you will not see it again</strong>.
      </p>
      <p>
        <code data-testid="token-secret" class="secret">
          {token.token}
        </code>
      </p>
      <button type="button" class="secondary" onClick={copy}>
        Copy the token
      </button>{' '}
      <button type="button" class="secondary" onClick={onHide}>
        Done, hide it
      </button>{' '}
      <span aria-live="polite">{copied}</span>
    </div>
  );
}
