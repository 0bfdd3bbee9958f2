import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, ApiError, ok } from '../../api/client';
import { solveChallenge } from '../../session/proof-of-work';
import { loadMe } from '../../session/session';
import { navigate } from '../../router/router';
import { Link } from '../../router/link';
import { Field, fieldId } from '../../ui/field';
import { Alert, Page } from '../../ui/page';
import { useAsync } from '../../ui/use-async';

/** Sign in: e-mail + password, then a one-time code when the account has TFA; provider buttons from GET /auth. */
export function SignInPage({ next, notice }: { next?: string; notice?: string }) {
  const ids = useMemo(() => ({ email: fieldId('email'), password: fieldId('password'), otp: fieldId('otp') }), []);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [otp, setOtp] = useState('');
  const [needOtp, setNeedOtp] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  // the code step: the focus on the code field (after the page's heading took it for the new title)
  useEffect(() => {
    if (needOtp) document.getElementById(ids.otp)?.focus();
  }, [needOtp]);
  const [working, setWorking] = useState(false);
  const providers = useAsync(() => ok(api.GET('/auth')), []);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    const body = { email, password, mode: 'session' as const, ...(needOtp ? { otp } : {}) };
    try {
      await ok(api.POST('/auth/login', { body })).catch(async (err) => {
        // during a password spray, a browser the account does not know yet proves some work first (no CAPTCHA)
        if (!(err instanceof ApiError && err.code === 'PROOF_OF_WORK_REQUIRED')) throw err;
        setWorking(true);
        const pow = await solveChallenge(String(err.extensions.challenge), Number(err.extensions.difficulty));
        setWorking(false);
        return ok(api.POST('/auth/login', { body: { ...body, pow } }));
      });
      setPassword('');
      await loadMe();
      navigate(next && next.startsWith('/') ? next : '/', { replace: true });
    } catch (err) {
      const code = err instanceof ApiError ? err.code : '';
      if (code === 'INVALID_OTP' && !needOtp) {
        setNeedOtp(true);
      } else if (code === 'INVALID_OTP') {
        setError('That code is not valid. Enter the current code from your authenticator app.');
      } else if (code === 'INVALID_CREDENTIALS') {
        setNeedOtp(false);
        setError('Wrong e-mail or password.');
      } else {
        setError(err instanceof Error ? err.message : String(err));
      }
    } finally {
      setBusy(false);
      setWorking(false);
    }
  };

  const list = (providers.value?.data ?? []) as { name?: string; label?: string }[];
  return (
    <Page title={needOtp ? 'Enter your one-time code' : 'Sign in'}>
      {notice && <Alert kind="success">{notice}</Alert>}
      {error && <Alert>{error}</Alert>}
      {working && (
        <p role="status" class="hint">
          Many failed sign-ins are being seen right now: your browser is doing a short check before signing you in…
        </p>
      )}
      <form onSubmit={submit} class="narrow" noValidate={false}>
        {!needOtp ? (
          <>
            <Field id={ids.email} label="E-mail" type="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
            <Field
              id={ids.password}
              label="Password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          </>
        ) : (
          <Field
            id={ids.otp}
            label="One-time code"
            hint="Your account uses two-factor authentication: enter the 6-digit code from your authenticator app."
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            required
            autoFocus
            value={otp}
            onInput={(e) => setOtp(e.currentTarget.value.trim())}
          />
        )}
        <button type="submit" disabled={busy}>
          {needOtp ? 'Verify' : 'Sign in'}
        </button>
      </form>
      {!needOtp && (
        <p>
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
      )}
      {list.length > 0 && !needOtp && (
        <nav aria-label="Sign in with a provider" class="providers">
          {list.map((p) => (
            <a
              key={p.name}
              class="button secondary"
              href={`/auth/login/${encodeURIComponent(p.name ?? '')}?redirect=${encodeURIComponent(location.origin + '/admin')}`}
            >
              Sign in with {p.label ?? p.name}
            </a>
          ))}
        </nav>
      )}
    </Page>
  );
}
