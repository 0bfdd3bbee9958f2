import { checkPage, describeBrowser, expectFieldError, see } from './support/browser';
import { apiAs, createUser } from './support/api';
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
});
