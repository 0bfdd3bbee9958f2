import type { Page } from 'playwright-core';
import { checkPage, describeBrowser, openContext, see } from './support/browser';
import { apiAs, createUser } from './support/api';
import { overflow, tabTo } from './support/keyboard';
import { signIn } from './support/sign-in';
import { ADMIN } from './support/platform-process';
import { browserSuite } from './support/suite';

// Issue 36: the item page schedules the promote of the chosen version (a local time, its zone named; forced or
// not), shows it while it waits (Cancel), then its outcome: done (the live item has the version's values) or
// failed with the reason (an alert) — and the activity page lists the failure. Nothing to schedule without update.
describeBrowser('admin app: scheduled promote of a content version', () => {
  const suite = browserSuite({
    signedInAdmin: true,
    prepare: async (s) => {
      const api = await apiAs(s.platform.url, ADMIN.email, ADMIN.password);
      const fields = [
        { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
        { field: 'title', type: 'string' },
      ];
      expect((await api.post('/collections', { collection: 'articles', fields, meta: { versioning: true } })).status).toBe(200);
    },
  });
  const api = () => apiAs(suite.platform.url, ADMIN.email, ADMIN.password);

  /** A live article with a version `draft` whose title differs; the item page open with that version chosen. */
  async function draft(name: string, page: Page = suite.admin.page) {
    const a = await api();
    const id = (await a.post('/items/articles', { title: `Live ${name}` })).body.data.id as number;
    const v = (await a.post('/versions', { collection: 'articles', item: id, key: 'draft', name: 'Draft' })).body.data;
    expect((await a.post(`/versions/${v.id}/save`, { title: `Draft ${name}` })).status).toBe(200);
    await page.goto(`/admin/content/articles/${id}`);
    await page.getByLabel('Version', { exact: true }).selectOption({ label: 'Draft (draft)' });
    await see(page.getByRole('heading', { name: 'Scheduled promote of version Draft (draft)' }));
    return { a, id, vid: v.id as string };
  }
  /** The browser's local time `ms` from now as the date-time input takes it (to the second). */
  const localIn = (page: Page, ms: number) =>
    page.evaluate((ms) => {
      const d = new Date(Date.now() + ms);
      return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
    }, ms);

  it('schedules a promote ~3 s ahead: it runs, the live item has the version’s values, the page says done', async () => {
    const { page } = suite.admin;
    const { a, id, vid } = await draft('on time');
    await see(page.getByText('No promote is scheduled for this version.'));
    const at = page.getByLabel('Promote at');
    expect(await at.getAttribute('type')).toBe('datetime-local');
    await see(page.getByText(/Your time zone: .+, UTC[+-]\d\d:\d\d\./));
    await checkPage(suite.admin, 'version-schedule-form');
    await at.fill(await localIn(page, 3000));
    await page.getByRole('button', { name: 'Schedule promote' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Promote scheduled for' }).filter({ hasText: 'only if the live item has not changed since.' }));
    expect((await a.get(`/versions/${vid}`)).body.data).toMatchObject({ publish_status: 'scheduled', publish_force: false });
    await see(page.getByRole('status').filter({ hasText: 'is done: the live item has the version' }));
    expect((await a.get(`/items/articles/${id}`)).body.data.title).toBe('Draft on time');
    expect((await a.get(`/versions/${vid}`)).body.data).toMatchObject({ publish_status: 'done', publish_error: null });
    await checkPage(suite.admin, 'version-schedule-done');
  }, 60_000);

  it('a live item changed after scheduling (no force): the page alerts failed with the reason; activity lists it', async () => {
    const { page } = suite.admin;
    const { a, id, vid } = await draft('stale');
    await page.getByLabel('Promote at').fill(await localIn(page, 3000));
    await page.getByRole('button', { name: 'Schedule promote' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Promote scheduled for' }));
    expect((await a.patch(`/items/articles/${id}`, { title: 'Changed meanwhile' })).status).toBe(200);
    const alert = page.getByRole('alert').filter({ hasText: 'failed: nothing was promoted. Reason: VERSION_HASH_MISMATCH: the item changed since' });
    await see(alert);
    await checkPage(suite.admin, 'version-schedule-failed');
    expect((await a.get(`/versions/${vid}`)).body.data).toMatchObject({
      publish_status: 'failed',
      publish_error: expect.stringMatching(/^VERSION_HASH_MISMATCH/),
    });
    expect((await a.get(`/items/articles/${id}`)).body.data.title).toBe('Changed meanwhile');

    // the activity page: the failure (activity without a revision), with the reason, linked to the item
    await page.goto(`/admin/activity?collection=articles&item=${id}`);
    await see(page.getByRole('heading', { name: 'Scheduled promotes that failed' }));
    const row = page.getByRole('row').filter({ hasText: 'scheduled promote failed' });
    await see(row.filter({ hasText: `version ${vid} (draft): VERSION_HASH_MISMATCH` }));
    await see(row.getByRole('link', { name: String(id) }));
    await checkPage(suite.admin, 'activity-promote-failed');
  }, 60_000);

  it('schedules by keyboard with force, shows it, fits a phone, cancels (API: publish_at null)', async () => {
    const { page } = suite.admin;
    const { a, vid } = await draft('cancelled');
    const force = page.getByRole('checkbox', { name: 'Promote even if the live item changed' });
    await tabTo(page, force);
    await page.keyboard.press('Space');
    await tabTo(page, page.getByRole('button', { name: 'Schedule promote' }));
    await page.keyboard.press('Enter');
    await see(page.getByRole('status').filter({ hasText: 'even if the live item changed since.' }));
    const scheduled = (await a.get(`/versions/${vid}`)).body.data;
    expect(scheduled).toMatchObject({ publish_status: 'scheduled', publish_force: true });
    expect(Date.parse(scheduled.publish_at) - Date.now()).toBeGreaterThan(30 * 60_000); // the default: an hour ahead
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await overflow(page)).toEqual([]);
    await checkPage(suite.admin, 'version-schedule-phone');
    await page.setViewportSize({ width: 1280, height: 860 });
    const cancel = page.getByRole('button', { name: 'Cancel scheduled promote' });
    await tabTo(page, cancel);
    await page.keyboard.press('Enter');
    await see(page.getByText('No promote is scheduled for this version.'));
    expect((await a.get(`/versions/${vid}`)).body.data).toMatchObject({ publish_at: null, publish_status: null });
  }, 60_000);

  it('a reader sees a schedule but can neither schedule nor cancel', async () => {
    const { a, vid } = await draft('read only');
    expect((await a.patch(`/versions/${vid}`, { publish_at: new Date(Date.now() + 3_600_000).toISOString() })).status).toBe(200);
    const role = (await a.post('/roles', { name: 'article readers' })).body.data.id as string;
    expect((await a.post('/permissions', { role, collection: 'articles', action: 'read', fields: ['*'] })).status).toBe(200);
    const reader = await createUser(suite.platform.url, ADMIN, { prefix: 'reader', password: 'reader-password-1', role });
    const other = await openContext(suite.browser, suite.platform.url);
    await signIn(other.page, reader.email, 'reader-password-1');
    await draftPageAs(other.page, (await a.get(`/versions/${vid}`)).body.data.item);
    await see(other.page.getByRole('status').filter({ hasText: 'Promote scheduled for' }));
    await other.page.waitForLoadState('networkidle');
    for (const name of ['Schedule promote', 'Reschedule promote', 'Cancel scheduled promote'])
      expect({ name, count: await other.page.getByRole('button', { name }).count() }).toEqual({ name, count: 0 });
    expect(await other.page.getByLabel('Promote at').count()).toBe(0);
    await checkPage(other, 'version-schedule-reader');
    await other.close();
  }, 60_000);

  async function draftPageAs(page: Page, item: string) {
    await page.goto(`/admin/content/articles/${item}`);
    await page.getByLabel('Version', { exact: true }).selectOption({ label: 'Draft (draft)' });
  }
});
