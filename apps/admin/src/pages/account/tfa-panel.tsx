import { useMemo, useState } from 'preact/hooks';
import { api, ApiError, ok } from '../../api/client';
import { loadMe, type Me } from '../../session/session';
import { Field, fieldId } from '../../ui/field';
import { Alert } from '../../ui/page';
import { QrCode } from '../../ui/qr-code';

const codeProblem = (e: unknown) =>
  e instanceof ApiError && e.code === 'INVALID_OTP' ? 'That code is not valid. Enter the current code from your authenticator app.' : (e as Error).message;

/** Two-factor authentication: enrol (password → QR code drawn here → verify a code) or disable (a code). */
export function TfaPanel({ me }: { me: Me }) {
  const ids = useMemo(() => ({ password: fieldId('tfa-password'), otp: fieldId('tfa-otp') }), []);
  const [password, setPassword] = useState('');
  const [otp, setOtp] = useState('');
  const [pending, setPending] = useState<{ secret: string; otpauth_url: string }>();
  const [fieldError, setFieldError] = useState<string>();
  const [notice, setNotice] = useState<string>();

  const start = async (e: Event) => {
    e.preventDefault();
    setFieldError(undefined);
    try {
      const r = await ok(api.POST('/users/me/tfa/generate', { body: { password } }));
      setPending(r.data);
      setPassword('');
    } catch (err) {
      setFieldError(err instanceof ApiError && err.code === 'INVALID_CREDENTIALS' ? 'The password is wrong.' : (err as Error).message);
    }
  };
  const enable = async (e: Event) => {
    e.preventDefault();
    setFieldError(undefined);
    try {
      await ok(api.POST('/users/me/tfa/enable', { body: { secret: pending!.secret, otp } }));
      setPending(undefined);
      setOtp('');
      setNotice('Two-factor authentication is on. Sign-ins now ask for a code.');
      await loadMe();
    } catch (err) {
      setFieldError(codeProblem(err));
    }
  };
  const disable = async (e: Event) => {
    e.preventDefault();
    setFieldError(undefined);
    try {
      await ok(api.POST('/users/me/tfa/disable', { body: { otp } }));
      setOtp('');
      setNotice('Two-factor authentication is off.');
      await loadMe();
    } catch (err) {
      setFieldError(codeProblem(err));
    }
  };
  const codeField = (
    <Field
      id={ids.otp}
      label="Code from the app"
      inputMode="numeric"
      autoComplete="one-time-code"
      value={otp}
      onInput={(e) => setOtp(e.currentTarget.value.trim())}
      error={fieldError}
    />
  );
  return (
    <section aria-labelledby="tfa-h" class="narrow">
      <h2 id="tfa-h">Two-factor authentication</h2>
      {notice && <Alert kind="success">{notice}</Alert>}
      {me.tfa ? (
        <form onSubmit={disable} noValidate>
          <p>Two-factor authentication is on. To turn it off, enter a current code.</p>
          {codeField}
          <button type="submit" class="danger">
            Disable two-factor authentication
          </button>
        </form>
      ) : pending ? (
        <form onSubmit={enable} noValidate>
          <p>Scan this code with an authenticator app, or type the key below into it. Then enter the code it shows.</p>
          <QrCode text={pending.otpauth_url} label="QR code of your two-factor key, for an authenticator app" />
          <p>
            Key: <code data-testid="tfa-secret">{pending.secret}</code>
          </p>
          {codeField}
          <button type="submit">Verify and enable</button>
        </form>
      ) : (
        <form onSubmit={start} noValidate>
          <p>Two-factor authentication is off. Enter your password to set it up.</p>
          <Field
            id={ids.password}
            label="Password for two-factor setup"
            type="password"
            autoComplete="current-password"
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
            error={fieldError}
          />
          <button type="submit">Set up two-factor authentication</button>
        </form>
      )}
    </section>
  );
}
