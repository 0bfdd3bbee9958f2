import { randomUUID } from 'node:crypto';
import { checkPage, describeBrowser, openContext, see, seeTexts, settled } from './support/browser';
import { apiAs } from './support/api';
import { signIn } from './support/sign-in';
import { ADMIN } from './support/platform-process';
import { browserSuite } from './support/suite';

// Issue 13, content: collections, items table, item forms, item history with diff and restore, the activity
// browser, and what a restricted role sees.
describeBrowser('admin app: content and history', () => {
  const suite = browserSuite({ signedInAdmin: true });

  it('creates a collection and an item, edits it twice, shows the diff, restores the first version as a new revision', async () => {
    const { page } = suite.admin;
    await page.goto('/admin/content');
    await see(page.getByText('There is no collection yet.'));
    await checkPage(suite.admin, 'content-empty');
    await page.getByLabel('Collection name').fill('articles');
    await page.getByLabel('Fields').fill('title string\nbody text\nviews integer');
    await page.getByRole('button', { name: 'Create collection' }).click();
    await page.getByRole('link', { name: 'articles' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Items of articles' }));
    await see(page.getByText('No item here yet'));

    await page.getByRole('link', { name: 'New item' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'New item in articles' }));
    // The new-item form is drawn as soon as the collection is known and may be drawn again when its definition is
    // re-read (fields reset): fill until the values stay, then create.
    const typed = { title: 'First title', body: 'First body', views: '1' };
    for (let attempt = 0; ; attempt++) {
      for (const [label, value] of Object.entries(typed)) await page.getByLabel(label).fill(value);
      await page.waitForTimeout(300);
      const held = await Promise.all(Object.entries(typed).map(async ([label, value]) => (await page.getByLabel(label).inputValue()) === value));
      if (held.every(Boolean)) break;
      if (attempt === 4) throw new Error('the new-item form kept losing its values');
    }
    await page.getByRole('button', { name: 'Create item' }).click();
    await see(page.getByRole('heading', { level: 1, name: /^Item \d+ of articles$/ }));
    await see(page.getByRole('button', { name: 'Show changes of revision 1' }));

    // by id: the history's "Restore title" checkbox has the label too; settled: the form has re-read the item
    await settled(page);
    await page.locator('#item-articles-title').fill('Second title');
    await page.getByRole('button', { name: 'Save item' }).click();
    await see(page.getByRole('button', { name: 'Show changes of revision 2' }));
    await settled(page);
    await page.locator('#item-articles-title').fill('Third title');
    await page.locator('#item-articles-views').fill('3');
    await page.getByRole('button', { name: 'Save item' }).click();
    await see(page.getByRole('button', { name: 'Show changes of revision 3' }));
    await checkPage(suite.admin, 'item-history');

    // Revision 2 against revision 1: only the title changed, highlighted and said in words.
    await page.getByRole('button', { name: 'Show changes of revision 2' }).click();
    const diff = page.getByRole('table', { name: 'Revision 2 against revision 1' });
    await see(diff);
    // the table is drawn before both revisions are in: wait (bounded) for the marked row, then read every row
    await diff.locator('tr[data-changed="true"]').first().waitFor({ timeout: 15_000 });
    const changed = await diff.locator('tr[data-changed="true"] th').allTextContents();
    expect(changed).toEqual(['title (changed)']);
    await seeTexts(diff.getByRole('row', { name: /title/ }).getByRole('cell'), ['First title', 'Second title']);
    await see(page.getByText(`by you (${ADMIN.email})`));

    // Restore revision 1: the old values are written back, which makes revision 4.
    await page.getByRole('button', { name: 'Show changes of revision 1' }).click();
    await page.getByRole('button', { name: 'Restore revision 1' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Restored from revision 1.' }));
    await see(page.getByRole('button', { name: 'Show changes of revision 4' }));
    // The form shows the item as re-read after the restore.
    await page.waitForFunction(() => (document.getElementById('item-articles-title') as HTMLInputElement | null)?.value === 'First title', undefined, {
      timeout: 10_000,
    });
    expect(await page.locator('#item-articles-views').inputValue()).toBe('1');
    const diff4 = page.getByRole('table', { name: 'Revision 4 against revision 3' });
    await diff4.locator('tr[data-changed="true"]').nth(1).waitFor({ timeout: 15_000 });
    await seeTexts(diff4.locator('tr[data-changed="true"] th'), ['title (changed)', 'views (changed)']);
    await checkPage(suite.admin, 'item-restored');

    // The items table: sort by a column, search.
    const api = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    expect((await api.post('/items/articles', [{ title: 'Alpha' }, { title: 'Zulu' }])).status).toBe(200);
    await page.getByRole('link', { name: 'Back to articles' }).click();
    await see(page.getByText('Page 1 of 1 (3 in all)'));
    await page.getByRole('button', { name: /^title/ }).click();
    await page.waitForURL(/sort=title/);
    await see(page.getByRole('columnheader', { name: /title/ }).and(page.locator('[aria-sort="ascending"]')));
    const titles = async () => await page.locator('tbody tr td:nth-child(3)').allTextContents();
    await page.waitForFunction(() => document.querySelector('tbody tr td:nth-child(3)')?.textContent === 'Alpha');
    expect(await titles()).toEqual(['Alpha', 'First title', 'Zulu']);
    await page.getByRole('button', { name: /^title/ }).click();
    await page.waitForFunction(() => document.querySelector('tbody tr td:nth-child(3)')?.textContent === 'Zulu');
    expect(await titles()).toEqual(['Zulu', 'First title', 'Alpha']);
    await page.getByLabel('Search articles').fill('alp');
    await page.getByRole('button', { name: 'Search' }).click();
    await see(page.getByText('Page 1 of 1 (1 in all)'));
    expect(await titles()).toEqual(['Alpha']);
    await checkPage(suite.admin, 'items');

    // Delete an item from its page.
    await page
      .getByRole('link', { name: /^Open \d+$/ })
      .first()
      .click();
    await see(page.getByRole('heading', { level: 1, name: /^Item \d+ of articles$/ }));
    await page.getByRole('button', { name: 'Delete item' }).click();
    await page.getByRole('button', { name: 'Yes, delete the item' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Items of articles' }));
    await page.goto('/admin/content/articles');
    await see(page.getByText('Page 1 of 1 (2 in all)'));
    expect(await titles()).not.toContain('Alpha');
  }, 120_000);

  it('a restricted user sees only its permitted collections, items and revisions', async () => {
    const api = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    const fields = [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
      { field: 'title', type: 'string' },
    ];
    expect((await api.post('/collections', { collection: 'secrets', fields })).status).toBe(200);
    expect((await api.post('/collections', { collection: 'notes', fields })).status).toBe(200);
    expect((await api.post('/items/secrets', { title: 'classified' })).status).toBe(200);
    expect((await api.post('/items/notes', { title: 'public note' })).status).toBe(200);
    const role = (await api.post('/roles', { name: 'note readers' })).body.data.id as string;
    expect((await api.post('/permissions', { role, collection: 'notes', action: 'read', fields: ['*'] })).status).toBe(200);
    const email = `reader-${randomUUID().slice(0, 8)}@example.com`;
    expect((await api.post('/users', { email, password: 'reader-password-1', role, status: 'active' })).status).toBe(200);

    const reader = await openContext(suite.browser, suite.platform.url);
    const { page } = reader;
    await signIn(page, email, 'reader-password-1');
    await see(page.getByRole('link', { name: 'notes' }));
    await seeTexts(page.getByRole('list', { name: 'Collections' }).getByRole('link'), ['notes']);
    await checkPage(reader, 'content-restricted');
    await page.getByRole('link', { name: 'notes' }).click();
    await see(page.getByRole('cell', { name: 'public note' }));
    await page.goto('/admin/content/secrets');
    await see(page.getByRole('alert').filter({ hasText: /not found/ }));

    await page.goto('/admin/activity');
    await see(page.getByRole('heading', { level: 1, name: 'Activity' }));
    await see(page.getByRole('cell', { name: 'notes', exact: true }));
    const collections = await page.locator('tbody tr td:nth-child(4)').allTextContents();
    expect(new Set(collections)).toEqual(new Set(['notes']));
    await checkPage(reader, 'activity-restricted');
    await reader.close();

    // The administrator's activity browser has everything, and filters by collection.
    await suite.admin.page.goto('/admin/activity');
    await see(suite.admin.page.getByRole('cell', { name: 'secrets', exact: true }));
    await suite.admin.page.getByLabel('Collection').fill('secrets');
    await suite.admin.page.getByRole('button', { name: 'Apply' }).click();
    await suite.admin.page.waitForURL(/collection=secrets/);
    await suite.admin.page.waitForFunction(() => [...document.querySelectorAll('tbody tr td:nth-child(4)')].every((td) => td.textContent === 'secrets'));
    // By user: the reader wrote nothing, the administrator everything.
    const readerId = (await api.get(`/users?filter[email][_eq]=${encodeURIComponent(email)}&fields=id`)).body.data[0].id as string;
    await suite.admin.page.getByLabel('Collection').fill('');
    await suite.admin.page.getByLabel('User (name or e-mail)').fill(readerId);
    await suite.admin.page.getByRole('button', { name: 'Apply' }).click();
    await see(suite.admin.page.getByText('No revision matches'));
    await suite.admin.page.getByLabel('Search revisions').fill('note');
    await suite.admin.page.getByLabel('User (name or e-mail)').fill('');
    await suite.admin.page.getByRole('button', { name: 'Apply' }).click();
    await see(suite.admin.page.getByRole('cell', { name: 'notes', exact: true }));
    // "note" matches the notes' revisions and the collection's own creation (a vellum_collections revision of item "notes")
    const shown = new Set(await suite.admin.page.locator('tbody tr td:nth-child(4)').allTextContents());
    expect(shown.has('notes')).toBe(true);
    expect([...shown].filter((c) => c !== 'notes' && c !== 'vellum_collections')).toEqual([]);
    await checkPage(suite.admin, 'activity');
  }, 90_000);
});
