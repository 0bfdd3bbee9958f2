import { checkPage, describeBrowser, see, seeTexts } from './support/browser';
import { apiAs } from './support/api';
import { ADMIN } from './support/platform-process';
import { browserSuite } from './support/suite';

// The item's history beyond "this revision against the one before": any two revisions compared field by field
// (words marked in long text), the item viewed as of a revision or a time, a restore previewed before it is done.
describeBrowser('admin app: history you can use', () => {
  const suite = browserSuite({ signedInAdmin: true });

  it('compares any two revisions, shows the item as it was, restores with a preview', async () => {
    const api = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    const fields = [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
      { field: 'title', type: 'string' },
      { field: 'body', type: 'text' },
    ];
    expect((await api.post('/collections', { collection: 'notes', fields })).status).toBe(200);
    const id = (await api.post('/items/notes', { title: 'First title', body: 'The quick brown fox jumps over the lazy dog.' })).body.data.id as number;
    expect((await api.patch(`/items/notes/${id}`, { title: 'Second title' })).status).toBe(200);
    const between = new Date();
    await new Promise((r) => setTimeout(r, 1100)); // the time picker has whole seconds
    expect((await api.patch(`/items/notes/${id}`, { body: 'The quick red fox jumps over the sleepy dog.' })).status).toBe(200);

    const { page } = suite.admin;
    await page.goto(`/admin/content/notes/${id}`);
    await see(page.getByRole('button', { name: 'Show changes of revision 3' }));

    // revision 1 against revision 3: both fields changed, the body's changed words marked
    await page.getByLabel('Compare from').selectOption({ label: 'Revision 1' });
    await page.getByLabel('Compare to').selectOption({ label: 'Revision 3' });
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    const diff = page.getByRole('table', { name: 'Revision 1 against Revision 3' });
    await see(diff);
    expect((await diff.locator('tr[data-changed="true"] th').allTextContents()).sort()).toEqual(['body (changed)', 'title (changed)']);
    await seeTexts(diff.locator('del'), expect.arrayContaining(['brown', 'lazy']));
    await seeTexts(diff.locator('ins'), expect.arrayContaining(['red', 'sleepy']));
    await checkPage(suite.admin, 'history-compare');

    // the item as of revision 1, then as of a time between revisions 2 and 3
    await page.getByLabel('View as of revision').selectOption({ label: 'Revision 1' });
    const asOf = page.getByRole('table', { name: /^The item as of Revision 1 \(from Revision 1,/ });
    await see(asOf);
    await seeTexts(asOf.getByRole('row', { name: /title/ }).getByRole('cell'), ['First title']);
    // the next whole second after revision 2 (revision 3 came more than a second later), in the browser's local time
    const second = Math.ceil(between.getTime() / 1000) * 1000;
    const local = new Date(second - new Date(second).getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
    await page.getByLabel('View as of time').fill(local);
    await page.getByRole('button', { name: 'View at this time' }).click();
    // the state comes from revision 2, named as the history numbers it
    const atTime = page.getByRole('table', { name: /^The item at .*\(from Revision 2,/ });
    await see(atTime);
    await seeTexts(atTime.getByRole('row', { name: /title/ }).getByRole('cell'), ['Second title']);
    await seeTexts(atTime.getByRole('row', { name: /body/ }).getByRole('cell'), ['The quick brown fox jumps over the lazy dog.']);

    // restore revision 1 with a preview first: nothing is written until it is confirmed
    await page.getByLabel('Revision to restore').selectOption({ label: 'Revision 1' });
    const preview = page.getByRole('region', { name: 'Restore preview' });
    await see(preview.getByText('Restoring Revision 1 writes back: title, body.'));
    await checkPage(suite.admin, 'history-restore-preview');
    expect((await api.get(`/items/notes/${id}`)).body.data.title).toBe('Second title');
    await preview.getByRole('button', { name: 'Confirm restore of Revision 1' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Restored from revision 1.' }));
    await see(page.getByRole('button', { name: 'Show changes of revision 4' }));
    expect((await api.get(`/items/notes/${id}`)).body.data).toEqual({ id, title: 'First title', body: 'The quick brown fox jumps over the lazy dog.' });
    const revisions = await api.get(`/revisions?filter[item][_eq]=${id}&filter[collection][_eq]=notes&sort=-id&limit=1&fields=activity.action`);
    expect(revisions.body.data[0].activity.action).toBe('revert');
  });
});
