import { checkPage, describeBrowser, see } from './support/browser';
import { apiAs } from './support/api';
import { ADMIN } from './support/platform-process';
import { browserSuite } from './support/suite';

// Issue 40.8: the items table — every field can be a column, filter by a field, select rows to delete or export
// them, a click on a row opens it, a collection can be deleted.
describeBrowser('admin app: the items table', () => {
  const suite = browserSuite({ signedInAdmin: true });

  it('chooses columns, filters by field, selects rows to export and delete, opens a row by a click, deletes the collection', async () => {
    const api = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    const names = ['title', 'f2', 'f3', 'f4', 'f5', 'f6', 'city'];
    const fields = [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
      ...names.map((field) => ({ field, type: 'string' })),
    ];
    expect((await api.post('/collections', { collection: 'places', fields })).status).toBe(200);
    const rows = [
      { title: 'one', city: 'Lyon' },
      { title: 'two', city: 'Paris' },
      { title: 'three', city: 'Lyon' },
    ];
    expect((await api.post('/items/places', rows)).status).toBe(200);

    const { page } = suite.admin;
    await page.goto('/admin/content/places');
    await see(page.getByRole('cell', { name: 'one', exact: true }));
    // the seventh field is not a column until chosen
    expect(await page.getByRole('columnheader', { name: /city/ }).count()).toBe(0);
    await page.getByText(/^Columns \(6 of 8 shown\)/).click();
    await page.getByRole('checkbox', { name: 'city' }).check();
    await see(page.getByRole('columnheader', { name: /city/ }));
    await page.getByRole('checkbox', { name: 'f2' }).uncheck();
    await page.waitForURL(/cols=/);
    expect(await page.getByRole('columnheader', { name: /f2/ }).count()).toBe(0);

    // filter by a field
    await page.getByLabel('Filter by field').selectOption('city');
    await page.getByLabel('Field value (contains)').fill('lyo');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await see(page.getByText('Page 1 of 1 (2 in all)'));
    expect(await page.getByRole('cell', { name: 'two', exact: true }).count()).toBe(0);
    await checkPage(suite.admin, 'items-filtered');

    // select both and export them, then delete them
    await page.getByRole('checkbox', { name: 'Select every item on this page' }).check();
    await see(page.getByText('2 selected'));
    const href = await page.getByRole('link', { name: 'Export selected (JSON)' }).getAttribute('href');
    const exported = JSON.parse(decodeURIComponent(href!.replace(/^data:application\/json;charset=utf-8,/, ''))) as { title: string }[];
    expect(exported.map((r) => r.title).sort()).toEqual(['one', 'three']);
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('button', { name: 'Yes, delete them' }).click();
    await see(page.getByRole('status').filter({ hasText: '2 items deleted.' }));
    expect((await api.get('/items/places?fields=title')).body.data).toEqual([{ title: 'two' }]);

    // a click on a row (not on its link) opens the item
    await page.goto('/admin/content/places');
    await page.getByRole('cell', { name: 'two', exact: true }).click();
    await see(page.getByRole('heading', { level: 1, name: /^Item \d+ of places$/ }));

    // delete the collection
    await page.goto('/admin/content/places');
    await page.getByRole('button', { name: 'Delete the collection places' }).click();
    await page.getByRole('button', { name: 'Yes, delete places' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Content' }));
    expect((await api.get('/collections/places')).status).toBe(403);
  }, 90_000);
});
