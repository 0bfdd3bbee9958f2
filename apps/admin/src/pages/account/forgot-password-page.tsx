import { useMemo, useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import { Link } from '../../router/link';
import { Field, fieldId } from '../../ui/field';
import { Alert, Page } from '../../ui/page';

/** Forgot password: ask for the reset mail (the answer is the same whether or not the account exists). */
export function ForgotPasswordPage() {
  const id = useMemo(() => fieldId('email'), []);
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await ok(api.POST('/auth/password/request', { body: { email } }));
      setSent(true);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Page title="Reset your password">
      {sent ? (
        <Alert kind="success">If an account uses {email}, a mail with a reset link is on its way. The link works once, for one hour.</Alert>
      ) : (
        <>
          {error && <Alert>{error}</Alert>}
          <form onSubmit={submit} class="narrow">
            <Field id={id} label="E-mail" type="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
            <button type="submit" disabled={busy}>
              Send the reset link
            </button>
          </form>
        </>
      )}
      <p>
        <Link to="/login">Back to sign in</Link>
      </p>
    </Page>
  );
}
