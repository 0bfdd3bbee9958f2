import { checkPage, describeBrowser, openContext, see, seeTexts, settled } from './support/browser';
import { apiAs, createUser } from './support/api';
import { overflow, tabTo } from './support/keyboard';
import { signIn } from './support/sign-in';
import { ADMIN } from './support/platform-process';
import { browserSuite } from './support/suite';

// Issue 36, point 3: the item page's content versions — pick, create, rename, delete a version; edit the item in
// a version (the live item stays); compare it with the live item field by field and promote all or chosen fields
// (a live item changed since the compare: 422, compare again); the history of a version; nothing without versioning.
describeBrowser('admin app: content versions of an item', () => {
  let id = 0;
  let plainId = 0;
  const suite = browserSuite({
    signedInAdmin: true,
    prepare: async (s) => {
      const api = await apiAs(s.platform.url, ADMIN.email, ADMIN.password);
      const fields = [
        { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
        { field: 'title', type: 'string' },
        { field: 'body', type: 'text' },
      ];
      expect((await api.post('/collections', { collection: 'articles', fields })).status).toBe(200);
      expect((await api.patch('/collections/articles', { meta: { versioning: true } })).status).toBe(200);
      id = (await api.post('/items/articles', { title: 'Live title', body: 'The live body of the article.' })).body.data.id;
      expect((await api.post('/collections', { collection: 'plain', fields })).status).toBe(200);
      plainId = (await api.post('/items/plain', { title: 'Plain' })).body.data.id;
    },
  });
  const api = () => apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
  const status = (text: string) => suite.admin.page.getByRole('status').filter({ hasText: text });

  it('creates a version, edits the item in it (live item unchanged), compares, promotes chosen fields', async () => {
    const a = await api();
    const { page } = suite.admin;
    await page.goto(`/admin/content/articles/${id}`);
    await see(page.getByLabel('Version', { exact: true }));
    await checkPage(suite.admin, 'versions-main');

    await page.getByRole('button', { name: 'New version' }).click();
    await page.getByLabel('Key').fill('draft');
    await page.getByLabel('Name').fill('Draft');
    // the item as the version has it is read after the switch (held back here for a second): until it is there the
    // form takes no input, which the arriving values would overwrite
    let held = 0;
    await page.route(/\/items\/articles\/\d+\?version=draft/, async (route) => {
      held++;
      await new Promise((r) => setTimeout(r, 1_000));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Create version' }).click();
    await see(page.getByRole('button', { name: 'Save to version' }));
    expect(await page.locator('#item-articles-title').isDisabled()).toBe(true);
    await page.waitForFunction(() => !document.querySelector<HTMLInputElement>('#item-articles-title')?.disabled);
    await page.unroute(/\/items\/articles\/\d+\?version=draft/);
    expect(held).toBeGreaterThan(0);
    expect(await page.getByLabel('Version', { exact: true }).locator('option:checked').textContent()).toBe('Draft (draft)');
    const version = (await a.get(`/versions?filter[item][_eq]=${id}&filter[collection][_eq]=articles`)).body.data[0];
    expect(version).toMatchObject({ key: 'draft', name: 'Draft' });

    // edit in the version: the version's delta takes the change, the live item does not
    await page.locator('#item-articles-title').fill('Draft title');
    await page.locator('#item-articles-body').fill('The draft body of the article.');
    await page.getByRole('button', { name: 'Save to version' }).click();
    await see(status('Saved to version Draft (draft). The live item is unchanged.'));
    expect((await a.get(`/items/articles/${id}`)).body.data).toMatchObject({ title: 'Live title', body: 'The live body of the article.' });
    expect((await a.get(`/items/articles/${id}?version=draft`)).body.data).toMatchObject({ title: 'Draft title', body: 'The draft body of the article.' });
    await page.reload();
    await page.getByLabel('Version', { exact: true }).selectOption({ label: 'Draft (draft)' });
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('#item-articles-title')?.value === 'Draft title');

    // the history of the version: its one save; Main: the item's own history
    await see(page.getByRole('heading', { name: 'History of version Draft (draft)' }));
    await see(page.getByText('1 revisions, newest first.'));
    expect((await a.get(`/revisions?filter[version][_eq]=${version.id}&aggregate[count]=*`)).body.data[0].count).toBe(1);

    // compare: the two changed fields, words marked; promote only the title
    await page.getByRole('button', { name: 'Compare with the live item' }).click();
    const diff = page.getByRole('table', { name: 'Version Draft (draft) against the live item' });
    await see(diff);
    expect((await diff.locator('tr[data-changed="true"] th').allTextContents()).sort()).toEqual(['body (changed)', 'title (changed)']);
    await seeTexts(diff.locator('ins'), expect.arrayContaining(['draft']));
    await checkPage(suite.admin, 'versions-compare');
    await page.getByRole('checkbox', { name: 'Promote body' }).uncheck();
    await page.getByRole('button', { name: 'Promote chosen fields' }).click();
    await see(status('Promoted title from version Draft (draft) to the live item.'));
    expect((await a.get(`/items/articles/${id}`)).body.data).toMatchObject({ title: 'Draft title', body: 'The live body of the article.' });

    // back on Main: the live item in the form, its history (created + the promote). Every frame is sampled: once
    // the form is busy reading the live item, no frame may show it ready with the version's values
    await page.evaluate(() => {
      const frames: [boolean, string][] = [];
      (window as unknown as { frames_: typeof frames }).frames_ = frames;
      const tick = () => {
        const busy = document.querySelector('form.item-form')?.getAttribute('aria-busy') === 'true';
        frames.push([busy, document.querySelector<HTMLTextAreaElement>('#item-articles-body')?.value ?? '']);
        if (frames.length < 2000) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await page.getByLabel('Version', { exact: true }).selectOption({ label: 'Main (the live item)' });
    await see(page.getByRole('button', { name: 'Save item' }));
    await see(page.getByRole('heading', { name: 'History', exact: true }));
    // every revision of the item: created, saved to the version, promoted
    await see(page.getByText('3 revisions, newest first.'));
    // the form keeps the version's values (disabled, busy) until the live item's arrive
    await settled(page);
    expect(await page.locator('#item-articles-body').inputValue()).toBe('The live body of the article.');
    const frames = await page.evaluate(() => (window as unknown as { frames_: [boolean, string][] }).frames_);
    const afterBusy = frames.slice(frames.findIndex(([busy]) => busy));
    expect(afterBusy.filter(([busy, body]) => !busy && body === 'The draft body of the article.')).toEqual([]);
  }, 90_000);

  it('a live item changed after the compare: promote says so, nothing is applied, compare again and promote', async () => {
    const a = await api();
    const { page } = suite.admin;
    await page.goto(`/admin/content/articles/${id}`);
    await page.getByLabel('Version', { exact: true }).selectOption({ label: 'Draft (draft)' });
    await page.getByRole('button', { name: 'Compare with the live item' }).click();
    const diff = page.getByRole('table', { name: 'Version Draft (draft) against the live item' });
    await see(diff);
    await seeTexts(diff.locator('tr[data-changed="true"] th'), ['body (changed)']);
    // the compare at phone width: nothing sticks out (the table scrolls inside its box)
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await overflow(page)).toEqual([]);
    await checkPage(suite.admin, 'versions-compare-phone');
    await page.setViewportSize({ width: 1280, height: 860 });

    // from the keyboard: promote meets the live item changed meanwhile, then compare again
    expect((await a.patch(`/items/articles/${id}`, { body: 'Changed meanwhile.' })).status).toBe(200);
    const promote = page.getByRole('button', { name: 'Promote all changes' });
    await promote.focus();
    await page.keyboard.press('Shift+Tab');
    await tabTo(page, promote);
    await page.keyboard.press('Enter');
    await see(page.getByRole('alert').filter({ hasText: 'The live item changed after you compared: nothing was promoted.' }));
    await checkPage(suite.admin, 'versions-promote-stale');
    expect((await a.get(`/items/articles/${id}`)).body.data.body).toBe('Changed meanwhile.');
    await tabTo(page, page.getByRole('button', { name: 'Compare again now' }));
    await page.keyboard.press('Enter');
    await see(diff.getByText('Changed meanwhile.'));
    await page.getByRole('button', { name: 'Promote all changes' }).click();
    await see(status('Promoted body from version Draft (draft) to the live item.'));
    expect((await a.get(`/items/articles/${id}`)).body.data).toMatchObject({ title: 'Draft title', body: 'The draft body of the article.' });
  }, 60_000);

  it('renames and deletes a version (asked first); fits a phone', async () => {
    const a = await api();
    const { page } = suite.admin;
    await page.goto(`/admin/content/articles/${id}`);
    await page.getByLabel('Version', { exact: true }).selectOption({ label: 'Draft (draft)' });
    await page.getByRole('button', { name: 'Rename version' }).click();
    await page.getByLabel('Key').fill('second');
    await page.getByLabel('Name').fill('Second draft');
    await page.setViewportSize({ width: 360, height: 740 });
    await checkPage(suite.admin, 'versions-rename-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.getByRole('button', { name: 'Save the new name' }).click();
    await see(page.getByRole('heading', { name: 'History of version Second draft (second)' }));
    expect(await page.getByLabel('Version', { exact: true }).locator('option:checked').textContent()).toBe('Second draft (second)');
    expect((await a.get(`/versions?filter[item][_eq]=${id}&filter[collection][_eq]=articles`)).body.data.map((v: { key: string }) => v.key)).toEqual([
      'second',
    ]);

    // a taken or reserved key is refused on the field
    await page.getByRole('button', { name: 'New version' }).click();
    await page.getByLabel('Key').fill('main');
    await page.getByRole('button', { name: 'Create version' }).click();
    await see(page.locator('.version-form .error, .version-form [role="alert"]'));
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Delete version' }).click();
    await page.getByRole('button', { name: 'Yes, delete the version' }).click();
    await see(page.getByRole('button', { name: 'Save item' }));
    await page.waitForFunction(() => document.querySelectorAll('#version-pick option').length === 1);
    await seeTexts(page.getByLabel('Version', { exact: true }).locator('option'), ['Main (the live item)']);
    expect((await a.get(`/versions?filter[item][_eq]=${id}&filter[collection][_eq]=articles`)).body.data).toEqual([]);
  }, 60_000);

  it('edits one-to-many children in a version: listed as the version has them, created on promote', async () => {
    const a = await api();
    const { page } = suite.admin;
    const ID = { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } };
    expect((await a.post('/collections', { collection: 'posts', fields: [ID, { field: 'title', type: 'string' }] })).status).toBe(200);
    expect(
      (await a.post('/collections', { collection: 'notes', fields: [ID, { field: 'text', type: 'string' }, { field: 'post', type: 'integer' }] })).status,
    ).toBe(200);
    expect((await a.patch('/collections/posts', { meta: { versioning: true } })).status).toBe(200);
    expect((await a.post('/relations', { collection: 'notes', field: 'post', related_collection: 'posts', meta: { one_field: 'notes' } })).status).toBe(200);
    const post = (await a.post('/items/posts', { title: 'Post', notes: [{ text: 'live note' }] })).body.data.id;
    expect((await a.post('/versions', { collection: 'posts', item: post, key: 'draft', name: 'Draft' })).status).toBe(200);

    await page.goto(`/admin/content/posts/${post}`);
    await page.getByLabel('Version', { exact: true }).selectOption({ label: 'Draft (draft)' });
    await see(page.getByRole('button', { name: 'Save to version' }));
    await page.getByRole('button', { name: 'Create a new notes item in notes' }).click();
    await page.locator('#alias-notes-new-text').fill('draft note');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'Save to version' }).click();
    await see(status('Saved to version Draft (draft). The live item is unchanged.'));
    // the version lists the child it creates; the live item has only its own
    const notes = page.getByRole('list', { name: 'notes of this item' });
    await see(notes.getByText('(new in this version: created when it is promoted)'));
    await seeTexts(notes.locator('li'), ['live note Unlink', 'draft note (new in this version: created when it is promoted)']);
    const texts = async () => (await a.get(`/items/notes?filter[post][_eq]=${post}&sort=id`)).body.data.map((n: { text: string }) => n.text);
    expect(await texts()).toEqual(['live note']);
    await page.reload();
    await page.getByLabel('Version', { exact: true }).selectOption({ label: 'Draft (draft)' });
    await see(notes.getByText('draft note'));
    await checkPage(suite.admin, 'versions-children');

    await page.getByRole('button', { name: 'Compare with the live item' }).click();
    await page.getByRole('button', { name: 'Promote all changes' }).click();
    await see(status('Promoted notes from version Draft (draft) to the live item.'));
    expect(await texts()).toEqual(['live note', 'draft note']);
  }, 60_000);

  it('offers nothing without versioning, and no version buttons without update permission', async () => {
    const { page } = suite.admin;
    await page.goto(`/admin/content/plain/${plainId}`);
    await see(page.getByRole('button', { name: 'Save item' }));
    await page.waitForLoadState('networkidle');
    expect(await page.getByLabel('Version', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'New version' }).count()).toBe(0);

    const a = await api();
    expect((await a.post('/versions', { collection: 'articles', item: id, key: 'review', name: 'Review' })).status).toBe(200);
    const role = (await a.post('/roles', { name: 'article readers' })).body.data.id as string;
    expect((await a.post('/permissions', { role, collection: 'articles', action: 'read', fields: ['*'] })).status).toBe(200);
    const reader = await createUser(suite.platform.url, ADMIN, { prefix: 'reader', password: 'reader-password-1', role });
    const other = await openContext(suite.browser, suite.platform.url);
    await signIn(other.page, reader.email, 'reader-password-1');
    await other.page.goto(`/admin/content/articles/${id}`);
    await other.page.getByLabel('Version', { exact: true }).selectOption({ label: 'Review (review)' });
    await other.page.getByRole('button', { name: 'Compare with the live item' }).click();
    await see(other.page.getByText("The version has the live item's values: nothing to promote."));
    await other.page.waitForLoadState('networkidle');
    for (const name of ['New version', 'Rename version', 'Delete version', 'Save to version'])
      expect({ name, count: await other.page.getByRole('button', { name }).count() }).toEqual({ name, count: 0 });
    await checkPage(other, 'versions-reader');
    await other.close();
  }, 60_000);
});
