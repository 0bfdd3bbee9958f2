import { checkPage, describeBrowser, see } from './support/browser';
import { apiAs } from './support/api';
import { ADMIN } from './support/platform-process';
import { browserSuite } from './support/suite';

// The activity page and an item's history follow new revisions as they are recorded (GET /revisions/stream through
// EventSource, with the session cookie): a change made elsewhere shows up without a reload.
describeBrowser('admin app: live history', () => {
  const suite = browserSuite({ signedInAdmin: true });

  it('shows a revision recorded elsewhere on the activity page and in the item history, without a reload', async () => {
    const api = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    const created = await api.post('/collections', {
      collection: 'live_notes',
      fields: [
        { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
        { field: 'title', type: 'string' },
      ],
    });
    expect(created.status).toBe(200);
    const item = await api.post('/items/live_notes', { title: 'first' });
    expect(item.status).toBe(200);
    const id = String(item.body.data.id);
    const { page } = suite.admin;
    let loads = 0;
    page.on('load', () => loads++);

    await page.goto('/admin/activity?collection=live_notes');
    const rows = page.getByRole('table').getByRole('row');
    await see(rows.filter({ hasText: 'create' }));
    await checkPage(suite.admin, 'activity-live');
    const before = loads;
    expect((await api.patch(`/items/live_notes/${id}`, { title: 'second' })).status).toBe(200);
    await see(rows.filter({ hasText: 'update' }));
    expect(await rows.count()).toBe(3); // the header and both revisions

    await page.goto(`/admin/content/live_notes/${encodeURIComponent(id)}`);
    await see(page.getByRole('button', { name: 'Show changes of revision 2' }));
    const onItem = loads;
    expect((await api.patch(`/items/live_notes/${id}`, { title: 'third' })).status).toBe(200);
    await see(page.getByRole('button', { name: 'Show changes of revision 3' }));
    expect([loads - before, loads - onItem]).toEqual([1, 0]); // the item page's own navigation; no reload after it
    // an open stream does not keep the page from being idle (what the other browser tests wait for)
    await page.goto('/admin/activity', { waitUntil: 'networkidle', timeout: 10_000 });
    await checkPage(suite.admin, 'activity-idle');
  });
});
