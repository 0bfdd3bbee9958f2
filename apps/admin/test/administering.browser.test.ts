import { checkPage, describeBrowser, expectFieldError, isFocused, openContext, see, seeTexts } from './support/browser';
import { apiAs, createUser, totp } from './support/api';
import { mailedLink } from './support/mail';
import { ADMIN } from './support/platform-process';
import { browserSuite } from './support/suite';

// Issue 40, administering: roles (asked before a delete, users moved, edit, unique names), users.
describeBrowser('admin app: administering roles and users', () => {
  const suite = browserSuite({ signedInAdmin: true });

  it('deleting a role says how many users have it and moves them; roles are edited; a taken name is refused', async () => {
    const api = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    const writers = (await api.post('/roles', { name: 'Writers' })).body.data.id as string;
    const reviewers = (await api.post('/roles', { name: 'Reviewers' })).body.data.id as string;
    const users = await Promise.all(
      [1, 2].map(() => createUser(suite.platform.url, ADMIN, { prefix: 'writer', password: 'writer-password-1', role: writers })),
    );

    const { page } = suite.admin;
    await page.goto('/admin/roles');
    await page.getByRole('button', { name: 'Delete Writers' }).click();
    await see(page.getByText('2 users have it'));
    // nothing is gone yet
    expect((await api.get(`/roles/${writers}`)).status).toBe(200);
    await page.getByLabel('Move the users of Writers to').selectOption({ label: 'Reviewers' });
    await checkPage(suite.admin, 'role-delete');
    await page.getByRole('button', { name: 'Yes, delete Writers' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Role Writers deleted. Its users now have the role Reviewers.' }));
    for (const u of users) expect((await api.get(`/users/${u.id}`)).body.data.role).toBe(reviewers);

    // a name taken (letter case aside) is refused on the field
    await page.getByLabel('Role name').fill('reviewers');
    await page.getByRole('button', { name: 'Create role' }).click();
    await expectFieldError(page.getByLabel('Role name'), 'A role named "Reviewers" exists already.');

    // edit: description and app access
    await page.getByRole('button', { name: 'Edit Reviewers' }).click();
    await see(page.getByRole('heading', { name: 'Edit the role Reviewers' }));
    await page.getByLabel('Description').fill('They review drafts');
    await page.getByLabel('App access (may sign in to this app)').uncheck();
    await page.getByRole('button', { name: 'Save role' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Role Reviewers saved.' }));
    await see(page.getByRole('cell', { name: 'They review drafts' }));
    expect((await api.get(`/roles/${reviewers}`)).body.data).toMatchObject({ description: 'They review drafts', app_access: false });
  }, 90_000);

  it('the two-factor step puts the focus on the code field; a failed create’s errors go with a later success (issue 40.9)', async () => {
    const user = await createUser(suite.platform.url, ADMIN, { prefix: 'tfa', password: 'tfa-password-1' });
    const self = await apiAs(suite.platform.url, user.email, 'tfa-password-1');
    const { secret } = (await self.post('/users/me/tfa/generate', { password: 'tfa-password-1' })).body.data as { secret: string };
    expect((await self.post('/users/me/tfa/enable', { secret, otp: totp(secret) })).status).toBe(204);
    const app = await openContext(suite.browser, suite.platform.url, '/admin/login');
    await app.page.getByLabel('E-mail').fill(user.email);
    await app.page.getByLabel('Password', { exact: true }).fill('tfa-password-1');
    await app.page.getByRole('button', { name: 'Sign in' }).click();
    const code = app.page.getByLabel('One-time code');
    await see(code);
    await app.page.waitForFunction(() => document.activeElement?.id.includes('otp'), undefined, { timeout: 5000 }).catch(() => undefined);
    expect(await isFocused(code)).toBe(true);
    await app.close();

    const { page } = suite.admin;
    await page.goto('/admin/users');
    await page.getByLabel('E-mail of the new user').fill('not-an-address');
    await page.getByLabel('Password of the new user').fill('new-user-password-1');
    await page.getByRole('button', { name: 'Create user' }).click();
    await see(page.locator('form[aria-labelledby="create-user-h"] .error, form[aria-labelledby="create-user-h"] [role="alert"]'));
    await page.getByLabel('E-mail to invite').fill('invited-40@example.com');
    await page.getByLabel('Role of the invited user').selectOption({ label: 'Administrator' });
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Invitation sent to invited-40@example.com.' }));
    expect(await page.locator('form[aria-labelledby="create-user-h"] .error, form[aria-labelledby="create-user-h"] [role="alert"]').count()).toBe(0);
  }, 60_000);

  it('null and missing are the same “no value”, never shown as “(changed)” (issue 40.9)', async () => {
    const api = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    const fields = [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
      { field: 'title', type: 'string' },
      { field: 'note', type: 'text' },
    ];
    expect((await api.post('/collections', { collection: 'sparse', fields })).status).toBe(200);
    const id = (await api.post('/items/sparse', { title: 'one' })).body.data.id as number;
    expect((await api.patch(`/items/sparse/${id}`, { title: 'two' })).status).toBe(200);
    const { page } = suite.admin;
    await page.goto(`/admin/content/sparse/${id}`);
    for (let i = 0; i < 20 && !(await page.getByText('2 revisions, newest first').count()); i++) await page.reload();
    const diff = page.getByRole('table', { name: 'Revision 2 against revision 1' });
    await diff.locator('tr[data-changed="true"]').first().waitFor();
    await seeTexts(diff.locator('tr[data-changed="true"] th'), ['title (changed)']);
    // the creation: the note was never given (null) — no value before, no value after, no change
    await page.getByRole('button', { name: 'Show changes of revision 1', exact: true }).click();
    const created = page.getByRole('table', { name: 'Revision 1 against nothing (created)' });
    await created.locator('tr[data-changed="true"]').first().waitFor();
    expect((await created.locator('tr[data-changed="true"] th').allTextContents()).sort()).toEqual(['id (changed)', 'title (changed)']);
  }, 60_000);

  it('an administrator resets a user’s 2FA, sends a reset mail, sets a password, changes the e-mail, sends an invitation again; last access shown (issue 40.7)', async () => {
    const base = suite.platform.url;
    const user = await createUser(base, ADMIN, { prefix: 'lost-phone', password: 'lost-phone-password-1' });
    const self = await apiAs(base, user.email, 'lost-phone-password-1');
    const { secret } = (await self.post('/users/me/tfa/generate', { password: 'lost-phone-password-1' })).body.data as { secret: string };
    expect((await self.post('/users/me/tfa/enable', { secret, otp: totp(secret) })).status).toBe(204);
    const login = (email: string, password: string) =>
      fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    expect((await login(user.email, 'lost-phone-password-1')).status).toBe(401); // a code is needed

    const { page } = suite.admin;
    await page.goto(`/admin/users/${user.id}`);
    await see(page.getByRole('heading', { level: 2, name: 'Access' }));
    await see(page.locator('dd').filter({ hasText: /\d{4}/ })); // last access: a date, not "never"
    await page.getByRole('button', { name: 'Reset two-factor authentication' }).click();
    await page.getByRole('button', { name: 'Yes, reset it' }).click();
    await see(page.getByRole('status').filter({ hasText: `Two-factor authentication reset for ${user.email}.` }));
    expect((await login(user.email, 'lost-phone-password-1')).status).toBe(200);

    await page.getByRole('button', { name: 'Send a password reset mail' }).click();
    await see(page.getByRole('status').filter({ hasText: `Password reset mail sent to ${user.email}.` }));
    await mailedLink(suite.platform.dataDir, user.email, 'reset-password?token=');
    await page.getByLabel('Set a new password').fill('set-by-admin-password-1');
    await page.getByRole('button', { name: 'Set password' }).click();
    await see(page.getByRole('status').filter({ hasText: `New password set for ${user.email}.` }));
    expect((await login(user.email, 'set-by-admin-password-1')).status).toBe(200);

    const renamed = user.email.replace('lost-phone', 'found-phone');
    await page.getByLabel('E-mail', { exact: true }).fill(renamed);
    await page.getByRole('button', { name: 'Save user' }).click();
    await see(page.getByRole('heading', { level: 1, name: `User ${renamed}` }));
    expect((await login(renamed, 'set-by-admin-password-1')).status).toBe(200);
    await checkPage(suite.admin, 'user-access');

    const api = await apiAs(base, ADMIN.email, ADMIN.password);
    const role = (await api.get('/roles?filter[name][_eq]=Reviewers&fields=id')).body.data[0].id as string;
    expect((await api.post('/users/invite', { email: 'invitee-40@example.com', role })).status).toBe(204);
    const invited = (await api.get('/users?filter[email][_eq]=invitee-40@example.com&fields=id')).body.data[0].id as string;
    await mailedLink(suite.platform.dataDir, 'invitee-40@example.com', 'accept-invite?token=');
    await page.goto(`/admin/users/${invited}`);
    await see(page.getByText('Never signed in'));
    await page.getByRole('button', { name: 'Send the invitation again' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Invitation sent again to invitee-40@example.com.' }));
    await mailedLink(suite.platform.dataDir, 'invitee-40@example.com', 'accept-invite?token=');
  }, 90_000);
});
