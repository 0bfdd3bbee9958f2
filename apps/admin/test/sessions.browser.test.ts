import { checkPage, describeBrowser, expectFieldError, isFocused, openContext, see } from './support/browser';
import { ADMIN } from './support/platform-process';
import { becomes, createUser, statusOf } from './support/api';
import { signIn, untilAskedToSignIn } from './support/sign-in';
import { browserSuite } from './support/suite';

// Issue 13 point 1 (with issue 14's API): the sessions and API tokens of the profile, and of a user for admins.
describeBrowser('admin app: sessions and API tokens', () => {
  const suite = browserSuite();
  const PASSWORD = 'sessions-password-1';
  /** A new active user without a role (public access only), signed in nowhere yet. */
  const newUser = (prefix: string) => createUser(suite.platform.url, ADMIN, { prefix, password: PASSWORD });

  it('two browsers as the same user: A sees both sessions, ends B’s, and B is asked to sign in; then “all other sessions”', async () => {
    const { email } = await newUser('sessions');
    const a = await openContext(suite.browser, suite.platform.url);
    const b = await openContext(suite.browser, suite.platform.url);
    await signIn(a.page, email, PASSWORD);
    await signIn(b.page, email, PASSWORD);

    await a.page.getByRole('link', { name: 'Profile' }).click();
    const sessions = a.page.getByRole('region', { name: 'Sessions' });
    await see(sessions.locator('tbody tr').nth(1));
    expect(await sessions.locator('tbody tr').count()).toBe(2);
    // A's own session is marked and offers no "sign out" of itself; the other one does.
    await see(sessions.locator('tbody tr[data-current]').getByText('(this session)'));
    expect(await sessions.locator('tbody tr[data-current]').getByRole('button').count()).toBe(0);
    await see(sessions.getByRole('cell', { name: /^Chrome on Linux/ }));
    await checkPage(a, 'profile-sessions');

    await sessions
      .locator('tbody tr:not([data-current])')
      .getByRole('button', { name: /^Sign out this session/ })
      .click();
    await see(sessions.getByRole('status').filter({ hasText: 'is signed out.' }));
    expect(await isFocused(sessions.getByRole('status').filter({ hasText: 'is signed out.' }))).toBe(true);
    await sessions.locator('tbody tr').nth(1).waitFor({ state: 'detached' });
    await untilAskedToSignIn(b.page);
    // A is still signed in.
    await a.page.reload();
    await see(a.page.getByRole('region', { name: 'Sessions' }).locator('tbody tr[data-current]'));

    // B signs in again; A ends every other session (asked to confirm first).
    await signIn(b.page, email, PASSWORD);
    await a.page.reload();
    await see(sessions.locator('tbody tr').nth(1));
    await sessions.getByRole('button', { name: 'Sign out all other sessions' }).click();
    const yes = sessions.getByRole('button', { name: 'Yes, sign out the other sessions' });
    expect(await isFocused(yes)).toBe(true);
    await yes.click();
    await see(sessions.getByRole('status').filter({ hasText: 'Every other session is signed out. This one stays.' }));
    await sessions.locator('tbody tr').nth(1).waitFor({ state: 'detached' });
    await untilAskedToSignIn(b.page);
    await a.close();
    await b.close();
  }, 90_000);

  it('creates an API token (the secret shown once), which opens GET /users/me; revoked, it is refused', async () => {
    const { email } = await newUser('tokens');
    const app = await openContext(suite.browser, suite.platform.url);
    const { page } = app;
    await signIn(page, email, PASSWORD);
    await page.getByRole('link', { name: 'Profile' }).click();
    const tokens = page.getByRole('region', { name: 'API tokens' });
    await see(tokens.getByText('No API token yet.'));
    await see(tokens.getByText('At most 365 days ahead'));

    // No name: the error is on the field, which gets the focus.
    await tokens.getByRole('button', { name: 'Create token' }).click();
    const name = tokens.getByLabel('Token name');
    await expectFieldError(name, 'Give the token a name (what uses it).');
    // Too far ahead: the API's refusal lands on the expiry field.
    await name.fill('deploy script');
    await tokens.getByLabel('Expires on').fill(new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 10));
    await tokens.getByRole('button', { name: 'Create token' }).click();
    await expectFieldError(tokens.getByLabel('Expires on'), '"expires" must be at most 365 days ahead');
    await checkPage(app, 'profile-token-error');

    await tokens.getByLabel('Expires on').fill(new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10));
    await tokens.getByRole('button', { name: 'Create token' }).click();
    await see(tokens.getByText('you will not see it again'));
    const secret = (await tokens.getByTestId('token-secret').textContent())!.trim();
    expect(secret).toMatch(/^vlm_[0-9a-f]{8}_/);
    await see(tokens.getByRole('cell', { name: 'deploy script', exact: true }));
    await see(tokens.getByRole('cell', { name: secret.slice(0, 12) }));
    await checkPage(app, 'profile-token-created');

    // The token opens the API from outside the browser (no cookie) as its user.
    const me = await fetch(`${suite.platform.url}/users/me`, { headers: { authorization: `Bearer ${secret}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { email: string } }).data.email).toBe(email);

    // Shown once: after hiding it, or on another visit, the secret is nowhere on the page.
    await tokens.getByRole('button', { name: 'Done, hide it' }).click();
    await page.reload();
    await see(tokens.getByRole('cell', { name: 'deploy script', exact: true }));
    expect(await page.content()).not.toContain(secret);

    // Revoke, after a confirmation: the same call is refused.
    await tokens.getByRole('button', { name: 'Revoke deploy script' }).click();
    await tokens.getByRole('button', { name: 'Yes, revoke deploy script' }).click();
    await see(tokens.getByRole('status').filter({ hasText: 'Token deploy script is revoked.' }));
    await see(tokens.getByText('No API token yet.'));
    expect(await becomes(() => statusOf(suite.platform.url, '/users/me', secret), 401)).toBe(401);
    await app.close();
  }, 90_000);

  it('an admin sees a user’s sessions and tokens on the user page, ends them and revokes them', async () => {
    const { email, id } = await newUser('managed');
    const user = await openContext(suite.browser, suite.platform.url);
    await signIn(user.page, email, PASSWORD);
    const mine = await fetch(`${suite.platform.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const access = ((await mine.json()) as { data: { access_token: string } }).data.access_token;
    const expires = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const created = await fetch(`${suite.platform.url}/users/me/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access}` },
      body: JSON.stringify({ name: 'their ci', expires }),
    });
    const secret = ((await created.json()) as { data: { token: string } }).data.token;

    const admin = await openContext(suite.browser, suite.platform.url);
    const { page } = admin;
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto(`/admin/users/${id}`);
    await see(page.getByRole('heading', { level: 1, name: `User ${email}` }));
    const sessions = page.getByRole('region', { name: 'Sessions' });
    const tokens = page.getByRole('region', { name: 'API tokens' });
    await see(sessions.locator('tbody tr').nth(1));
    await see(tokens.getByRole('cell', { name: 'their ci', exact: true }));
    await checkPage(admin, 'user-sessions-tokens');

    await tokens.getByRole('button', { name: 'Revoke their ci' }).click();
    await tokens.getByRole('button', { name: 'Yes, revoke their ci' }).click();
    await see(tokens.getByText('No API token yet.'));
    expect(await becomes(() => statusOf(suite.platform.url, '/users/me', secret), 401)).toBe(401);

    await sessions.getByRole('button', { name: 'Sign out all sessions' }).click();
    await sessions.getByRole('button', { name: 'Yes, sign out all sessions' }).click();
    await see(sessions.getByText('This user is not signed in anywhere.'));
    await untilAskedToSignIn(user.page);
    expect(await becomes(() => statusOf(suite.platform.url, '/users/me', access), 401)).toBe(401);
    await user.close();
    await admin.close();
  }, 90_000);
});
