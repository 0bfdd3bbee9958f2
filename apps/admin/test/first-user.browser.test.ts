import { randomUUID } from 'node:crypto';
import { checkPage, describeBrowser, openContext, see } from './support/browser';
import { apiAs } from './support/api';
import { signIn } from './support/sign-in';
import { ADMIN } from './support/platform-process';
import { browserSuite } from './support/suite';

// Issue 40, content as a first user meets it: buttons follow the user's permissions, messages say what happened.
describeBrowser('admin app: what a first user meets in content', () => {
  const suite = browserSuite({ signedInAdmin: true });

  it('a read-only user sees no New, Save, Delete or Restore; a deleted item says "deleted" and can be undeleted; an unknown collection is "not found"', async () => {
    const api = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    const fields = [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
      { field: 'title', type: 'string' },
    ];
    expect((await api.post('/collections', { collection: 'memos', fields })).status).toBe(200);
    const kept = (await api.post('/items/memos', { title: 'kept memo' })).body.data.id as number;
    expect((await api.patch(`/items/memos/${kept}`, { title: 'kept memo, edited' })).status).toBe(200);
    const doomed = (await api.post('/items/memos', { title: 'doomed memo' })).body.data.id as number;
    const role = (await api.post('/roles', { name: 'memo readers' })).body.data.id as string;
    expect((await api.post('/permissions', { role, collection: 'memos', action: 'read', fields: ['*'] })).status).toBe(200);
    const email = `memo-reader-${randomUUID().slice(0, 8)}@example.com`;
    expect((await api.post('/users', { email, password: 'reader-password-1', role, status: 'active' })).status).toBe(200);

    const reader = await openContext(suite.browser, suite.platform.url);
    const { page } = reader;
    await signIn(page, email, 'reader-password-1');
    await page.goto('/admin/content/memos');
    await see(page.getByRole('cell', { name: 'kept memo, edited' }));
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('link', { name: 'New item' }).count()).toBe(0);
    await page.goto(`/admin/content/memos/${kept}`);
    await see(page.getByRole('button', { name: 'Show changes of revision 1' }));
    await page.getByRole('button', { name: 'Show changes of revision 1' }).click();
    await page.waitForLoadState('networkidle');
    expect(await page.getByLabel('title').isDisabled()).toBe(true);
    for (const name of ['Save item', 'Delete item', 'Restore revision 1'])
      expect({ name, count: await page.getByRole('button', { name }).count() }).toEqual({ name, count: 0 });
    await checkPage(reader, 'item-read-only');

    // Deleted by the administrator: the reader is told so, not "no permission".
    expect((await api.delete(`/items/memos/${doomed}`)).status).toBe(204);
    await page.goto(`/admin/content/memos/${doomed}`);
    await see(page.getByText('This item was deleted.'));
    expect(await page.getByRole('button', { name: 'Undelete item' }).count()).toBe(0);
    await page.goto('/admin/content/nowhere');
    await see(page.getByRole('alert').filter({ hasText: 'Collection “nowhere” was not found' }));
    await reader.close();

    // The administrator may undelete it: the values it had come back.
    const admin = suite.admin.page;
    await admin.goto(`/admin/content/memos/${doomed}`);
    await see(admin.getByText('This item was deleted.'));
    await admin.getByRole('button', { name: 'Undelete item' }).click();
    await see(admin.getByRole('status').filter({ hasText: /Restored from revision \d+/ }));
    await admin.waitForFunction(() => (document.getElementById('item-memos-title') as HTMLInputElement | null)?.value === 'doomed memo');
    expect((await api.get(`/items/memos/${doomed}`)).body.data.title).toBe('doomed memo');
  }, 90_000);
});
