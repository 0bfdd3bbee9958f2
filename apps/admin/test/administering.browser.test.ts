import { checkPage, describeBrowser, expectFieldError, isFocused, openContext, see } from './support/browser';
import { apiAs, createUser, totp } from './support/api';
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
    expect(await diff.locator('tr[data-changed="true"] th').allTextContents()).toEqual(['title (changed)']);
    // the creation: the note was never given (null) — no value before, no value after, no change
    await page.getByRole('button', { name: 'Show changes of revision 1', exact: true }).click();
    const created = page.getByRole('table', { name: 'Revision 1 against nothing (created)' });
    await created.locator('tr[data-changed="true"]').first().waitFor();
    expect((await created.locator('tr[data-changed="true"] th').allTextContents()).sort()).toEqual(['id (changed)', 'title (changed)']);
  }, 60_000);
});
