import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../api/client';
import { navigate } from '../../router/router';
import { Link } from '../../router/link';
import { Alert, Page } from '../../ui/page';
import { NewPasswordFields, newPasswordProblem } from '../../ui/new-password-fields';

/** Messages for a token the API refused, by error code. */
export interface TokenMessages {
  expired: string;
  used: string;
  invalid: string;
}

/**
 * A page that sets a password with a token from a mailed link (reset password, accept invitation): the policy
 * shown, a confirmation field, clear messages for an expired or used token, and sign-in after success.
 */
export function TokenPasswordPage(p: {
  title: string;
  token: string | null;
  submitLabel: string;
  messages: TokenMessages;
  successNotice: string;
  send: (token: string, password: string) => Promise<unknown>;
  /** Said when opening the link trusted this browser (its device cookie). */
  trustedNotice?: string;
}) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  // After a refused submit, focus goes to the first field in error.
  useEffect(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), [errors]);

  if (!p.token) {
    return (
      <Page title={p.title}>
        <Alert>{p.messages.invalid}</Alert>
      </Page>
    );
  }
  const token = p.token;
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    const problem = newPasswordProblem(password, confirm);
    setErrors(problem ? { [problem.field]: problem.message } : {});
    if (problem) {
      return;
    }
    setBusy(true);
    try {
      await p.send(token, password);
      navigate(`/login?notice=${encodeURIComponent(p.successNotice)}`, { replace: true });
    } catch (err) {
      const code = err instanceof ApiError ? err.code : '';
      if (code === 'TOKEN_EXPIRED') setError(p.messages.expired);
      else if (code === 'FORBIDDEN') setError(p.messages.used);
      else if (code === 'INVALID_TOKEN') setError(p.messages.invalid);
      else if (code === 'FAILED_VALIDATION') setErrors({ password: `The password does not meet the policy: ${(err as Error).message}` });
      else setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Page title={p.title}>
      {error && <Alert>{error}</Alert>}
      {!error && p.trustedNotice && <Alert kind="info">{p.trustedNotice}</Alert>}
      <form ref={form} onSubmit={submit} class="narrow" noValidate>
        <NewPasswordFields password={password} confirm={confirm} onPassword={setPassword} onConfirm={setConfirm} errors={errors} />
        <button type="submit" disabled={busy}>
          {p.submitLabel}
        </button>
      </form>
      <p>
        <Link to="/forgot-password">Request a new link</Link> · <Link to="/login">Sign in</Link>
      </p>
    </Page>
  );
}
