import { randomUUID } from 'node:crypto';
import { checkPage, describeBrowser, openContext, see, seeTexts } from './support/browser';
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

  it('history: 231 revisions newest first and paged, against the current item, word-level changes, restore of chosen fields named by its source', async () => {
    const api = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    const fields = [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
      { field: 'title', type: 'string' },
      { field: 'body', type: 'text' },
    ];
    expect((await api.post('/collections', { collection: 'drafts', fields })).status).toBe(200);
    const id = (await api.post('/items/drafts', { title: 'title 1', body: 'first line\nsecond line stays' })).body.data.id as number;
    for (let n = 2; n <= 230; n++) expect((await api.patch(`/items/drafts/${id}`, { title: `title ${n}` })).status).toBe(200);
    expect((await api.patch(`/items/drafts/${id}`, { body: 'first line\nsecond line moves' })).status).toBe(200);

    const { page } = suite.admin;
    await page.goto(`/admin/content/drafts/${id}`);
    // revisions reach the history through the event stream: reload until all are in (bounded)
    for (let i = 0; i < 40 && !(await page.getByText('231 revisions, newest first').count()); i++) {
      await page.waitForTimeout(250);
      if (i % 8 === 7) await page.reload();
    }
    await see(page.getByText('231 revisions, newest first. Page 1 of 12.'));
    const heads = page.getByRole('list', { name: 'Revisions, newest first' }).locator('li strong');
    expect(await heads.first().textContent()).toBe('Revision 231: update');
    // the newest is shown at once: its words, with the line break kept
    const diff = page.getByRole('table', { name: 'Revision 231 against revision 230' });
    await see(diff);
    const body = diff.getByRole('row', { name: /body/ });
    await seeTexts(body.locator('del'), ['stays']);
    await seeTexts(body.locator('ins'), ['moves']);
    expect(await body.locator('td').nth(1).innerText()).toBe('first line\nsecond line moves');
    await checkPage(suite.admin, 'item-history-long');

    // the oldest, eleven pages on
    for (let i = 0; i < 11; i++) await page.getByRole('button', { name: 'Older revisions' }).click();
    await see(page.getByText('Page 12 of 12'));
    expect(await heads.last().textContent()).toBe('Revision 1: create');
    await page.getByRole('button', { name: 'Show changes of revision 1', exact: true }).click();
    await page.getByLabel('the current item').check();
    const now = page.getByRole('table', { name: 'Revision 1 against the current item' });
    await see(now);
    expect((await now.locator('tr[data-changed="true"] th').allTextContents()).sort()).toEqual(['body (changed)', 'title (changed)']);

    // restore only the title: the body stays as it is
    await page.getByRole('checkbox', { name: 'Restore body' }).uncheck();
    await page.getByRole('button', { name: 'Restore revision 1' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Restored from revision 1.' }));
    await page.waitForFunction(() => (document.getElementById('item-drafts-title') as HTMLInputElement | null)?.value === 'title 1');
    expect((await api.get(`/items/drafts/${id}`)).body.data).toMatchObject({ title: 'title 1', body: 'first line\nsecond line moves' });
    await see(page.getByText('232 revisions, newest first'));
  }, 120_000);

  it('activity and history name people, not ids; filter by a user’s name or e-mail (issue 40.6)', async () => {
    const api = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    const fields = [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
      { field: 'title', type: 'string' },
    ];
    expect((await api.post('/collections', { collection: 'logbook', fields })).status).toBe(200);
    const role = (await api.post('/roles', { name: 'loggers' })).body.data.id as string;
    for (const action of ['create', 'read']) expect((await api.post('/permissions', { role, collection: 'logbook', action, fields: ['*'] })).status).toBe(200);
    const email = `grace-${randomUUID().slice(0, 8)}@example.com`;
    const grace = { email, password: 'grace-password-1', role, status: 'active', first_name: 'Grace', last_name: 'Hopper' };
    expect((await api.post('/users', grace)).status).toBe(200);
    const asGrace = await apiAs(suite.platform.url, email, 'grace-password-1');
    const id = (await asGrace.post('/items/logbook', { title: 'moth found in relay' })).body.data.id as number;
    expect((await api.post('/items/logbook', { title: 'written by the administrator' })).status).toBe(200);

    const { page } = suite.admin;
    await page.goto('/admin/activity?collection=logbook');
    await see(page.getByRole('cell', { name: `Grace Hopper (${email})` }));
    await page.getByLabel('User (name or e-mail)').fill('hopper');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/user=hopper/);
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
    await seeTexts(page.locator('tbody tr td:nth-child(6)'), [`Grace Hopper (${email})`]);
    await checkPage(suite.admin, 'activity-people');
    await page.goto(`/admin/content/logbook/${id}`);
    await see(page.getByText(`by Grace Hopper (${email})`));
  }, 60_000);
});
