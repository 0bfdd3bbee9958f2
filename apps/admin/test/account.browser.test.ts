import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { TokenIssuer } from '@vellum/auth/src/domain/token-issuer';
import { loadSigningKeys } from '@vellum/auth/src/data/signing-keys';
import { ADMIN } from './support/platform-process';
import { checkPage, describeBrowser, description, expectFieldError, openContext, see } from './support/browser';
import { mailedLink } from './support/mail';
import { apiAs, createUser, totp } from './support/api';
import { browserSuite } from './support/suite';

// Issue 13, account pages, in Chromium against the platform started as `npm start` starts it.
describeBrowser('admin app: account pages', () => {
  // An OAuth provider configured (never contacted here): the sign-in page offers its button.
  const provider = {
    AUTH_PROVIDERS: 'example',
    AUTH_EXAMPLE_DRIVER: 'oauth2',
    AUTH_EXAMPLE_CLIENT_ID: 'vellum-admin',
    AUTH_EXAMPLE_AUTHORIZE_URL: 'http://127.0.0.1:9/authorize',
    AUTH_EXAMPLE_ACCESS_URL: 'http://127.0.0.1:9/token',
    AUTH_EXAMPLE_PROFILE_URL: 'http://127.0.0.1:9/profile',
    AUTH_EXAMPLE_LABEL: 'Example SSO',
  };
  const suite = browserSuite({ env: provider });

  const signIn = async (page: import('playwright-core').Page, email: string, password: string) => {
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };
  /** The reset page's form: the new password, its confirmation (the same unless given), submitted. */
  const setNewPassword = async (page: import('playwright-core').Page, password: string, confirmation = password) => {
    await page.getByLabel('New password', { exact: true }).fill(password);
    await page.getByLabel('Confirm the new password').fill(confirmation);
    await page.getByRole('button', { name: 'Set the new password' }).click();
  };
  const newUser = (prefix: string, password: string) => createUser(suite.platform.url, ADMIN, { prefix, password });
  /** A fresh browser context on the platform at `start` (the app's start page when none). */
  const open = async (start?: string) => {
    const app = await openContext(suite.browser, suite.platform.url, start);
    return { app, page: app.page };
  };

  it('signs in and out with a session cookie the page cannot read', async () => {
    const { app, page } = await open();
    await page.goto('/admin/profile');
    await page.waitForURL(/\/admin\/login\?next=%2Fprofile/);
    await checkPage(app, 'sign-in');
    const sso = page.getByRole('link', { name: 'Sign in with Example SSO' });
    await see(sso);
    expect(await sso.getAttribute('href')).toBe(`/auth/login/example?redirect=${encodeURIComponent(`${suite.platform.url}/admin`)}`);

    await signIn(page, ADMIN.email, 'not-the-password');
    await see(page.getByRole('alert').filter({ hasText: 'Wrong e-mail or password.' }));
    await checkPage(app, 'sign-in-error');

    await signIn(page, ADMIN.email, ADMIN.password);
    await page.waitForURL(/\/admin\/profile$/);
    await see(page.getByRole('heading', { level: 1, name: 'Profile' }));
    await see(page.getByText(`Signed in as ${ADMIN.email}`));
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'vellum_session_token');
    expect(session).toEqual(expect.objectContaining({ httpOnly: true, sameSite: 'Lax' }));
    expect(await page.evaluate(() => document.cookie)).not.toContain('vellum_session_token');
    // Focus moved to the new page's heading.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/admin\/login$/);
    await page.goto('/admin/profile');
    await page.waitForURL(/\/admin\/login\?next=/);
    expect((await page.context().cookies()).find((c) => c.name === 'vellum_session_token')).toBeUndefined();
    await app.close();
  }, 60_000);

  it('signs in with a one-time code when the account has TFA', async () => {
    const admin = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    const email = `tfa-${randomUUID().slice(0, 8)}@example.com`;
    const password = 'tfa-user-password-1';
    expect((await admin.post('/users', { email, password, status: 'active' })).status).toBe(200);
    const user = await apiAs(suite.platform.url, email, password);
    const { secret } = (await user.post('/users/me/tfa/generate', { password })).body.data as { secret: string };
    expect((await user.post('/users/me/tfa/enable', { secret, otp: totp(secret) })).status).toBe(204);

    const { app, page } = await open('/admin/login');
    await signIn(page, email, password);
    await see(page.getByRole('heading', { level: 1, name: 'Enter your one-time code' }));
    await checkPage(app, 'sign-in-otp');
    await page.getByLabel('One-time code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await see(page.getByRole('alert').filter({ hasText: 'That code is not valid' }));
    // The next step's code: the enabling code was used once already.
    await page.getByLabel('One-time code').fill(totp(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await see(page.getByText(`Signed in as ${email}`));
    await app.close();
  }, 60_000);

  it('resets a password from the mailed link; a used and an expired link each say so', async () => {
    const { email } = await newUser('reset', 'the-old-password-1');

    const { app, page } = await open('/admin/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Reset your password' }));
    await checkPage(app, 'forgot-password');
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await see(page.getByRole('status').filter({ hasText: 'a mail with a reset link is on its way' }));

    const link = await mailedLink(suite.platform.dataDir, email, '/admin/reset-password?token=');
    expect(new URL(link).origin).toBe(suite.platform.url);
    await page.goto(link);
    await see(page.getByRole('heading', { level: 1, name: 'Choose a new password' }));
    await see(page.getByText('At least 8 characters'));
    await checkPage(app, 'reset-password');
    // A confirmation that differs: the error is tied to its field, which gets the focus.
    await setNewPassword(page, 'the-new-password-1', 'the-new-password-2');
    const confirm = page.getByLabel('Confirm the new password');
    await expectFieldError(confirm, 'The two passwords differ.');
    await checkPage(app, 'reset-password-mismatch');
    await confirm.fill('the-new-password-1');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.waitForURL(/\/admin\/login\?notice=/);
    await see(page.getByRole('status').filter({ hasText: 'Your password is changed' }));
    await signIn(page, email, 'the-new-password-1');
    await see(page.getByText(`Signed in as ${email}`));

    // The same link again: used.
    await page.goto(link);
    await setNewPassword(page, 'another-password-1');
    await see(page.getByRole('alert').filter({ hasText: /already used/ }));
    await checkPage(app, 'reset-password-used');

    // A link whose token expired (signed with the platform's key, an hour and more ago).
    const issuer = new TokenIssuer(loadSigningKeys({ AUTH_KEYS_DIR: path.join(suite.platform.dataDir, 'keys') }));
    const expired = issuer.signReset({ id: randomUUID(), email, password: null }, 60_000, new Date(Date.now() - 2 * 3600_000));
    await page.goto(`/admin/reset-password?token=${expired}`);
    await setNewPassword(page, 'another-password-1');
    await see(page.getByRole('alert').filter({ hasText: /has expired/ }));
    await app.close();
  }, 90_000);

  it('profile: changes the password (current one required), enrols TFA from the QR code drawn in the page, disables it', async () => {
    const { email } = await newUser('profile', 'profile-password-1');
    const { app, page } = await open('/admin/login');
    await signIn(page, email, 'profile-password-1');
    await page.getByRole('link', { name: 'Profile' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Profile' }));
    await checkPage(app, 'profile');

    await page.getByLabel('Current password').fill('wrong-password-1');
    await page.getByLabel('New password', { exact: true }).fill('profile-password-2');
    await page.getByLabel('Confirm the new password').fill('profile-password-2');
    await page.getByRole('button', { name: 'Change password' }).click();
    await see(page.getByText('The current password is wrong.'));
    expect(await description(page.getByLabel('Current password'))).toBe('The current password is wrong.');
    await page.getByLabel('Current password').fill('profile-password-1');
    await page.getByRole('button', { name: 'Change password' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Your password is changed.' }));
    const relogin = await apiAs(suite.platform.url, email, 'profile-password-2');
    expect((await relogin.get('/users/me')).status).toBe(200);

    // TFA: the QR code is an SVG drawn in the page (no image request); its key enables TFA with a current code.
    await page.getByLabel('Password for two-factor setup').fill('profile-password-2');
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await see(page.getByRole('img', { name: /QR code of your two-factor key/ }));
    expect(await page.locator('.qr svg path').getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/);
    await checkPage(app, 'profile-tfa-enrol');
    const secret = (await page.getByTestId('tfa-secret').textContent()) as string;
    await page.getByLabel('Code from the app').fill(totp(secret));
    await page.getByRole('button', { name: 'Verify and enable' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Two-factor authentication is on.' }));
    const login = await fetch(`${suite.platform.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'profile-password-2' }),
    });
    expect(((await login.json()) as { errors: { extensions: { code: string } }[] }).errors[0].extensions.code).toBe('INVALID_OTP');

    await page.getByLabel('Code from the app').fill(totp(secret, 1));
    await page.getByRole('button', { name: 'Disable two-factor authentication' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Two-factor authentication is off.' }));
    const plain = await fetch(`${suite.platform.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'profile-password-2' }),
    });
    expect(plain.status).toBe(200);
    await app.close();
  }, 90_000);

  it('works from the keyboard alone: skip link, sign in, the main navigation, sign out', async () => {
    const { app, page } = await open('/admin/login');
    await see(page.getByRole('heading', { level: 1, name: 'Sign in' }));
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('id') ?? document.activeElement?.textContent?.trim());
    // The page's heading has the focus; before it, the skip link; after it, the first field.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('Skip to content');
    await page.keyboard.press('Tab');
    expect(await focused()).toMatch(/^f-email-/);
    await page.keyboard.type(ADMIN.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(ADMIN.password);
    await page.keyboard.press('Enter');
    await see(page.getByText(`Signed in as ${ADMIN.email}`));
    // Focus lands on the new page's heading; Tab goes on through the page, round to the skip link and the navigation.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    const order: string[] = [];
    for (let i = 0; i < 16; i++) {
      await page.keyboard.press('Tab');
      order.push((await focused()) ?? '');
    }
    const nav = ['Skip to content', 'Content', 'Activity', 'Users', 'Roles', 'Permissions', 'Profile', 'Sign out'];
    const start = order.indexOf('Skip to content');
    expect(order.slice(start, start + nav.length)).toEqual(nav);
    while ((await focused()) !== 'Users') await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await see(page.getByRole('heading', { level: 1, name: 'Users' }));
    await page.keyboard.press('Shift+Tab');
    while ((await focused()) !== 'Sign out') await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/admin\/login$/);
    await app.close();
  }, 60_000);

  it('says so when the API does not answer, and recovers on retry', async () => {
    const { app, page } = await open();
    // The session check meets a 503 (what the gateway answers while auth is down), then the API is back.
    const outage = JSON.stringify({ errors: [{ message: 'Service "auth" is unavailable.', extensions: { code: 'SERVICE_UNAVAILABLE' } }] });
    await page.route('**/users/me?*', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: outage }));
    await page.goto('/admin/content');
    await see(page.getByRole('heading', { level: 1, name: 'Vellum is not answering' }));
    await see(page.getByRole('alert').filter({ hasText: 'unavailable' }));
    await checkPage(app, 'api-down');
    await page.unroute('**/users/me?*');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.waitForURL(/\/admin\/login\?next=%2Fcontent/);
    await app.close();
  }, 60_000);
});
