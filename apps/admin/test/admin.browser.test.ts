import { randomUUID } from 'node:crypto';
import { checkPage, describeBrowser, openContext, see } from './support/browser';
import { becomes, statusOf } from './support/api';
import { mailedLink } from './support/mail';
import { signIn, untilAskedToSignIn } from './support/sign-in';
import { browserSuite } from './support/suite';

// Issue 13, administration: users (create, invite, suspend, delete, search/filter), roles, permissions editor.
describeBrowser('admin app: administration', () => {
  const suite = browserSuite({ signedInAdmin: true });

  it('creates a role, then a user with it; the user signs in; suspending ends their open session; delete', async () => {
    const { page } = suite.admin;
    await page.getByRole('link', { name: 'Roles' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Roles' }));
    await page.getByLabel('Role name').fill('editors');
    await page.getByRole('button', { name: 'Create role' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Role editors created.' }));
    await see(page.getByRole('cell', { name: 'editors', exact: true }));
    await checkPage(suite.admin, 'roles');
    await page.getByLabel('Role name').fill('short-lived');
    await page.getByRole('button', { name: 'Create role' }).click();
    await page.getByRole('button', { name: 'Delete short-lived' }).click();
    await page.getByRole('button', { name: 'Yes, delete short-lived' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Role short-lived deleted.' }));
    await page.getByRole('cell', { name: 'short-lived', exact: true }).waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Users' }));
    await checkPage(suite.admin, 'users');
    const email = `made-${randomUUID().slice(0, 8)}@example.com`;
    // A bad address: the API's message lands on the e-mail field.
    await page.getByLabel('E-mail of the new user').fill('not-an-address');
    await page.getByLabel('Password of the new user').fill('made-user-password-1');
    await page.getByLabel('Role of the new user').selectOption({ label: 'editors' });
    await page.getByRole('button', { name: 'Create user' }).click();
    await see(page.getByText('"email" must be a valid email'));
    expect(await page.getByLabel('E-mail of the new user').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('E-mail of the new user').fill(email);
    await page.getByRole('button', { name: 'Create user' }).click();
    await see(page.getByRole('status').filter({ hasText: `User ${email} created.` }));
    await see(page.getByRole('link', { name: email }));

    // The new user signs in, in a browser of their own.
    const user = await openContext(suite.browser, suite.platform.url);
    await signIn(user.page, email, 'made-user-password-1');
    await see(user.page.getByRole('heading', { level: 1, name: 'Content' }));
    await see(user.page.getByText('Your role may not read any collection yet'));
    await checkPage(user, 'content-empty-restricted');
    // Not an administrator: no admin pages.
    expect(await user.page.getByRole('link', { name: 'Users', exact: true }).count()).toBe(0);
    await user.page.goto('/admin/users');
    await see(user.page.getByText('This page is for administrators.'));

    // The admin suspends them: their open session stops working at once.
    await page.getByRole('link', { name: email }).click();
    await see(page.getByRole('heading', { level: 1, name: `User ${email}` }));
    await checkPage(suite.admin, 'user-edit');
    // Another role first (it sticks), then suspension.
    await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Administrator' });
    await page.getByRole('button', { name: 'Save user' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Saved.' }));
    await page.reload();
    await see(page.getByRole('heading', { level: 1, name: `User ${email}` }));
    await page.waitForFunction(
      () => (document.querySelector('select[name^="f-role"]') as HTMLSelectElement | null)?.selectedOptions[0]?.textContent === 'Administrator',
    );
    await page.getByLabel('Status').selectOption('suspended');
    await page.getByRole('button', { name: 'Save user' }).click();
    await see(page.getByRole('status').filter({ hasText: 'their sessions have ended' }));
    // Inside the app, without a reload: its next call meets the revoked session and the app asks to sign in.
    // (Revocation reaches the gateway within a second: the user keeps moving between two pages until then.)
    await untilAskedToSignIn(user.page);
    await user.page.getByLabel('E-mail').fill(email);
    await user.page.getByLabel('Password', { exact: true }).fill('made-user-password-1');
    await user.page.getByRole('button', { name: 'Sign in' }).click();
    await see(user.page.getByRole('alert').filter({ hasText: 'Wrong e-mail or password.' }));
    await user.close();

    await page.getByRole('button', { name: 'Delete user' }).click();
    await page.getByRole('button', { name: 'Yes, delete this user' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Users' }));
    expect(await page.getByRole('link', { name: email }).count()).toBe(0);
  }, 90_000);

  it('invites a user: the mail links to the accept page, the new user sets a password and signs in', async () => {
    const { page } = suite.admin;
    await page.goto('/admin/users');
    const email = `invited-${randomUUID().slice(0, 8)}@example.com`;
    await page.getByLabel('E-mail to invite').fill(email);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await see(page.getByText('Choose the role the new user gets.'));
    await page.getByLabel('Role of the invited user').selectOption({ label: 'editors' });
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await see(page.getByRole('status').filter({ hasText: `Invitation sent to ${email}.` }));

    const link = await mailedLink(suite.platform.dataDir, email, '/admin/accept-invite?token=');
    const invited = await openContext(suite.browser, suite.platform.url);
    await invited.page.goto(link);
    await see(invited.page.getByRole('heading', { level: 1, name: 'Accept your invitation' }));
    await checkPage(invited, 'accept-invite');
    await invited.page.getByLabel('New password', { exact: true }).fill('invited-password-1');
    await invited.page.getByLabel('Confirm the new password').fill('invited-password-1');
    await invited.page.getByRole('button', { name: 'Set my password' }).click();
    await see(invited.page.getByRole('status').filter({ hasText: 'Your account is ready' }));
    await signIn(invited.page, email, 'invited-password-1');
    // The link works once.
    await invited.page.goto(link);
    await invited.page.getByLabel('New password', { exact: true }).fill('invited-password-2');
    await invited.page.getByLabel('Confirm the new password').fill('invited-password-2');
    await invited.page.getByRole('button', { name: 'Set my password' }).click();
    await see(invited.page.getByRole('alert').filter({ hasText: 'already accepted' }));
    await invited.close();

    // Search and filter find them; the status filter leaves them out when it does not match.
    await page.goto('/admin/users');
    await page.getByLabel('Search users').fill(email.slice(0, 15));
    await page.getByLabel('Status').selectOption('active');
    await page.getByRole('button', { name: 'Apply' }).click();
    await see(page.getByRole('link', { name: email }));
    await page.getByLabel('Status').selectOption('suspended');
    await page.getByRole('button', { name: 'Apply' }).click();
    await see(page.getByText('No user matches.'));
  }, 90_000);

  it('edits permissions: the public role (anonymous requests follow it), a role × collection × action, field selection', async () => {
    const { page } = suite.admin;
    await page.goto('/admin/content');
    await page.getByLabel('Collection name').fill('notes');
    await page.getByRole('button', { name: 'Create collection' }).click();
    await see(page.getByRole('link', { name: 'notes' }));

    await page.getByRole('link', { name: 'Permissions' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Permissions' }));
    await see(page.getByText('What the public role may do in each collection'));
    // The public role: read on notes lets a request without any credential list its items; untick, refused again.
    const created = await page.evaluate(
      async () => (await fetch('/items/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"a public note"}' })).status,
    );
    expect(created).toBe(200);
    const anonymous = () => statusOf(suite.platform.url, '/items/notes?limit=1');
    expect(await anonymous()).toBe(403);
    await page.getByRole('checkbox', { name: 'read notes', exact: true }).click();
    await see(page.getByRole('group', { name: 'Fields for read notes' }));
    expect(await page.getByRole('checkbox', { name: 'read notes', exact: true }).isChecked()).toBe(true);
    expect(await becomes(anonymous, 200)).toBe(200);
    // The revisions of notes follow the same rule (not readable: an empty list, never 403).
    const revisions = async () =>
      ((await (await fetch(`${suite.platform.url}/revisions?filter[collection][_eq]=notes`)).json()) as { data: unknown[] }).data.length;
    expect(await becomes(revisions, 1)).toBe(1);
    await checkPage(suite.admin, 'permissions-public');
    await page.getByRole('checkbox', { name: 'read notes', exact: true }).click();
    await page.getByRole('group', { name: 'Fields for read notes' }).waitFor({ state: 'detached' });
    expect(await becomes(anonymous, 403)).toBe(403);
    expect(await becomes(revisions, 0)).toBe(0);

    await page.getByLabel('Role').selectOption({ label: 'editors' });
    await see(page.getByText('What editors may do in each collection'));
    // the box follows the saved permission (it turns once the API answered): click, then wait for what it shows
    await page.getByRole('checkbox', { name: 'read notes', exact: true }).click();
    await see(page.getByRole('group', { name: 'Fields for read notes' }));
    await page.getByRole('checkbox', { name: 'All fields (read notes)' }).uncheck();
    await page.getByRole('checkbox', { name: 'title', exact: true }).check();
    await page.getByRole('button', { name: 'Save fields of read notes' }).click();
    await see(page.getByText('Fields of read notes saved.'));
    await checkPage(suite.admin, 'permissions');

    // What the API now holds for the role.
    const perms = await page.evaluate(
      async () => (await (await fetch('/permissions?filter[collection][_eq]=notes')).json()) as { data: { action: string; fields: string[] }[] },
    );
    expect(perms.data).toEqual([expect.objectContaining({ action: 'read', fields: ['title'] })]);
    await page.getByRole('checkbox', { name: 'read notes', exact: true }).click();
    await page.getByRole('group', { name: 'Fields for read notes' }).waitFor({ state: 'detached' });
    const after = await page.evaluate(async () => (await (await fetch('/permissions?filter[collection][_eq]=notes')).json()) as { data: unknown[] });
    expect(after.data).toEqual([]);
  }, 60_000);
});
