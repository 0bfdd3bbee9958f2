import type { Page } from 'playwright-core';
import { checkPage, describeBrowser, openContext, see, seeTexts } from './support/browser';
import { apiAs, createUser } from './support/api';
import { overflow, tabTo } from './support/keyboard';
import { signIn } from './support/sign-in';
import { ADMIN } from './support/platform-process';
import { browserSuite } from './support/suite';
import { writesDuring } from './support/writes-during';

const ID = { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } };

// The item form follows the data model: a many-to-one is a choice of related items by their names, an alias field
// lists its linked items (link, unlink, create inline), the whole item goes in one nested request (with If-Match);
// the history shows such a write with its nested children as one entry.
describeBrowser('admin app: relational fields in the item form and the history', () => {
  const suite = browserSuite({
    signedInAdmin: true,
    prepare: async (s) => {
      const api = await apiAs(s.platform.url, ADMIN.email, ADMIN.password);
      const mk = async (collection: string, fields: object[], meta?: object) =>
        expect((await api.post('/collections', { collection, fields: [ID, ...fields], ...(meta ? { meta } : {}) })).status).toBe(200);
      await mk('authors', [
        { field: 'name', type: 'string' },
        { field: 'email', type: 'string' },
      ]);
      await mk('articles', [
        { field: 'title', type: 'string' },
        { field: 'author', type: 'integer' },
      ]);
      await mk('comments', [
        { field: 'body', type: 'string' },
        { field: 'article', type: 'integer' },
      ]);
      await mk('tags', [{ field: 'name', type: 'string' }]);
      await mk('articles_tags', [
        { field: 'articles_id', type: 'integer' },
        { field: 'tags_id', type: 'integer' },
      ]);
      expect((await api.patch('/collections/authors', { meta: { display_template: '{{name}} <{{email}}>' } })).status).toBe(200);
      const rel = async (body: object) => expect((await api.post('/relations', body)).status).toBe(200);
      await rel({ collection: 'articles', field: 'author', related_collection: 'authors' });
      await rel({ collection: 'comments', field: 'article', related_collection: 'articles', meta: { one_field: 'comments', one_deselect_action: 'nullify' } });
      await rel({
        collection: 'articles_tags',
        field: 'articles_id',
        related_collection: 'articles',
        meta: { one_field: 'tags', junction_field: 'tags_id', one_deselect_action: 'delete' },
      });
      await rel({ collection: 'articles_tags', field: 'tags_id', related_collection: 'tags', meta: { junction_field: 'articles_id' } });
      expect(
        (
          await api.post('/items/authors', [
            { name: 'Ann', email: 'ann@example.com' },
            { name: 'Bob', email: 'bob@example.com' },
          ])
        ).status,
      ).toBe(200);
      expect((await api.post('/items/tags', [{ name: 'news' }, { name: 'tech' }])).status).toBe(200);
      const a = await api.post('/items/articles', { title: 'Hello', author: 1, comments: [{ body: 'c1' }, { body: 'c2' }], tags: [{ tags_id: 1 }] });
      expect(a.status).toBe(200);
    },
  });
  const field = (page: Page, name: string) => page.locator(`#item-articles-${name}`);

  it('edits an author, comments and tags in one nested request; the history shows it as one entry with its children', async () => {
    const api = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    const { page } = suite.admin;
    await page.goto('/admin/content/articles/1');
    await see(page.getByRole('heading', { level: 1, name: 'Item 1 of articles' }));
    // the many-to-one shows the related items by the display template
    await see(page.getByRole('list', { name: 'comments of this item' }).getByText('c2'));
    expect(await field(page, 'author').locator('option:checked').textContent()).toBe('Ann <ann@example.com>');
    await seeTexts(field(page, 'author').locator('option'), ['— none —', 'Ann <ann@example.com>', 'Bob <bob@example.com>']);
    // the alias lists: children by their first text field
    await seeTexts(page.getByRole('list', { name: 'tags of this item' }).locator('li'), [expect.stringMatching(/^news/)]);
    await checkPage(suite.admin, 'item-relational');

    await field(page, 'author').selectOption({ label: 'Bob <bob@example.com>' });
    await page.getByRole('button', { name: 'Unlink c1 from comments' }).click();
    await page.getByRole('button', { name: 'Create a new comments item in comments' }).click();
    await page.locator('#alias-comments-new-body').fill('c3');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByLabel('Link an existing tags item').selectOption({ label: 'tech' });
    await page.getByRole('button', { name: 'Link to tags' }).click();
    // by keyboard: reach "create", type, Enter adds
    await tabTo(page, page.getByRole('button', { name: 'Create a new tags item in tags' }));
    await page.keyboard.press('Enter');
    await page.locator('#alias-tags-new-name').fill('fresh');
    await page.locator('#alias-tags-new-name').press('Enter');
    await page.getByRole('button', { name: 'Unlink news from tags' }).click();
    expect(await page.getByRole('list', { name: 'tags of this item' }).locator('li').allTextContents()).toEqual([
      expect.stringMatching(/^tech \(linked on save\)/),
      expect.stringMatching(/^fresh \(new: created on save\)/),
    ]);
    await checkPage(suite.admin, 'item-relational-edited');

    // c1 is unlinked: from here on the comments list must never show it again (not even while the item is read again)
    await page.evaluate(() => {
      const w = window as unknown as { sawUnlinked: boolean };
      w.sawUnlinked = false;
      new MutationObserver(() => {
        const list = document.querySelector('[aria-label="comments of this item"]');
        if (list && /\bc1\b/.test(list.textContent ?? '')) w.sawUnlinked = true;
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const writes = await writesDuring(page, async () => {
      await page.getByRole('button', { name: 'Save item' }).click();
      await see(page.getByRole('status').filter({ hasText: 'Saved.' }));
    });
    // one request, Directus's nested shapes
    expect(writes).toEqual([
      {
        method: 'PATCH',
        path: '/items/articles/1',
        body: {
          author: 2,
          comments: { create: [{ body: 'c3' }], update: [], delete: [1] },
          tags: { create: [{ tags_id: 2 }, { tags_id: { name: 'fresh' } }], update: [], delete: [1] },
        },
      },
    ]);
    const stored = (await api.get('/items/articles/1?fields=author,comments.body,tags.tags_id.name')).body.data;
    expect(stored).toEqual({ author: 2, comments: [{ body: 'c2' }, { body: 'c3' }], tags: [{ tags_id: { name: 'tech' } }, { tags_id: { name: 'fresh' } }] });
    expect((await api.get('/items/comments/1')).body.data.article).toBeNull();

    // the form shows the item as stored now: once read again, never the rows of before under the reset edits
    const comments = page.getByRole('list', { name: 'comments of this item' });
    await see(comments.locator('li', { hasText: 'c3' }).filter({ hasNotText: 'created on save' }));
    await seeTexts(comments.locator('li'), [expect.stringMatching(/^c2 /), expect.stringMatching(/^c3 /)]);
    expect(await page.evaluate(() => (window as unknown as { sawUnlinked: boolean }).sawUnlinked)).toBe(false);

    // history: the write is one entry; opened, its children; a junction row's own child (the new tag) under it
    const entry = page.getByText('Revision 2: with 5 nested changes');
    await see(entry);
    await tabTo(page, entry);
    await page.keyboard.press('Enter');
    const nested = page.locator('.history details[open] > ul.nested');
    await see(nested.getByText('comments 3'));
    const lines = await nested.locator(':scope > li').allTextContents();
    // in the order they were recorded; each with the values it wrote (a deleted one: the values it had)
    expect(lines.map((l) => l.replace(/ Show what.*$/, '')).sort()).toEqual([
      'articles_tags 1 deleted: had articles_id: 1, id: 1, tags_id: 1',
      'articles_tags 2 created: articles_id: 1, tags_id: 2',
      'articles_tags 3 created: articles_id: 1, tags_id: 3',
      'comments 1 updated: article: —',
      'comments 3 created: article: 1, body: c3',
    ]);
    await page.getByRole('button', { name: 'Show what was written under articles_tags 3' }).click();
    await see(nested.getByRole('link', { name: 'tags 3', exact: true }));
    await seeTexts(nested.locator('ul.nested > li'), [expect.stringMatching(/^tags 3 created: name: fresh/)]);
    await checkPage(suite.admin, 'item-history-nested');

    // a phone: the relational form and the history fit
    await page.setViewportSize({ width: 360, height: 740 });
    await page.reload();
    await see(page.getByRole('list', { name: 'comments of this item' }));
    await checkPage(suite.admin, 'item-relational-phone');
    expect(await overflow(page)).toEqual([]);
    // and the dark theme holds axe's contrast checks too
    await page.emulateMedia({ colorScheme: 'dark' });
    await checkPage(suite.admin, 'item-relational-phone-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 860 });
  }, 120_000);

  it('creates an item with its relations in one request', async () => {
    const api = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    const { page } = suite.admin;
    await page.goto('/admin/content/articles/+');
    await see(page.getByRole('heading', { level: 1, name: 'New item in articles' }));
    await field(page, 'author').locator('option', { hasText: 'Ann' }).waitFor({ state: 'attached' });
    await field(page, 'title').fill('Second');
    await field(page, 'author').selectOption({ label: 'Ann <ann@example.com>' });
    await page.getByRole('button', { name: 'Create a new comments item in comments' }).click();
    await page.locator('#alias-comments-new-body').fill('first!');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByLabel('Link an existing tags item').selectOption({ label: 'tech' });
    await page.getByRole('button', { name: 'Link to tags' }).click();
    const writes = await writesDuring(page, async () => {
      await page.getByRole('button', { name: 'Create item' }).click();
      await see(page.getByRole('heading', { level: 1, name: /^Item \d+ of articles$/ }));
    });
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({ method: 'POST', path: '/items/articles' });
    const id = Number(/Item (\d+) of/.exec((await page.locator('h1').textContent()) ?? '')![1]);
    expect((await api.get(`/items/articles/${id}?fields=title,author,comments.body,tags.tags_id.name`)).body.data).toEqual({
      title: 'Second',
      author: 1,
      comments: [{ body: 'first!' }],
      tags: [{ tags_id: { name: 'tech' } }],
    });
  }, 60_000);

  it('with more related items than the choice shows, a search narrows it', async () => {
    const api = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    const many = Array.from({ length: 120 }, (_, i) => ({ name: `Writer ${i}`, email: `w${i}@example.com` }));
    expect((await api.post('/items/authors', many)).status).toBe(200);
    const { page } = suite.admin;
    await page.goto('/admin/content/articles/1');
    const search = page.getByLabel('Search authors for author');
    await see(search);
    expect(await field(page, 'author').locator('option').count()).toBe(101);
    await search.fill('Writer 119');
    await field(page, 'author').locator('option', { hasText: 'Writer 119' }).waitFor({ state: 'attached' });
    // the chosen item stays offered beside the matches
    await seeTexts(field(page, 'author').locator('option'), ['— none —', 'Bob <bob@example.com>', 'Writer 119 <w119@example.com>']);
    await field(page, 'author').selectOption({ label: 'Writer 119 <w119@example.com>' });
    await page.getByRole('button', { name: 'Save item' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Saved.' }));
    const writer = (await api.get('/items/authors?filter[name][_eq]=Writer%20119&fields=id')).body.data[0].id as number;
    expect((await api.get('/items/articles/1')).body.data.author).toBe(writer);
  }, 60_000);

  it('a role that may not read the relations (the API keeps them to administrators) edits the key fields as values, with no 403', async () => {
    const api = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    const role = (await api.post('/roles', { name: 'article editors' })).body.data.id as string;
    for (const action of ['read', 'update']) expect((await api.post('/permissions', { role, collection: 'articles', action, fields: ['*'] })).status).toBe(200);
    const user = await createUser(suite.platform.url, ADMIN, { prefix: 'editor', password: 'editor-password-1', role });
    const other = await openContext(suite.browser, suite.platform.url);
    const failures: string[] = [];
    other.page.on('response', (r) => {
      if (r.status() >= 400) failures.push(`${r.status()} ${new URL(r.url()).pathname}`);
    });
    await signIn(other.page, user.email, 'editor-password-1');
    await other.page.goto('/admin/content/articles/1');
    await see(other.page.getByRole('button', { name: 'Save item' }));
    await other.page.waitForLoadState('networkidle');
    expect(await field(other.page, 'author').evaluate((el) => el.tagName)).toBe('INPUT');
    expect(await other.page.locator('fieldset.alias').count()).toBe(0);
    expect(failures).toEqual([]);
    await other.close();
  }, 60_000);

  it('a nested save meets another save: If-Match holds, nothing is lost', async () => {
    const api = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    const id = (await api.post('/items/articles', { title: 'T0', comments: [{ body: 'k1' }] })).body.data.id as number;
    const a = suite.admin.page;
    const other = await openContext(suite.browser, suite.platform.url);
    const b = other.page;
    await signIn(b, ADMIN.email, ADMIN.password);
    await Promise.all([a.goto(`/admin/content/articles/${id}`), b.goto(`/admin/content/articles/${id}`)]);
    await Promise.all([see(a.getByRole('list', { name: 'comments of this item' })), see(b.getByRole('list', { name: 'comments of this item' }))]);
    // A changes the title; B, opened before, only adds a comment: its request is conditional on the version it read
    await field(a, 'title').fill('T1 by A');
    await a.getByRole('button', { name: 'Save item' }).click();
    await see(a.getByRole('status').filter({ hasText: 'Saved.' }));
    await b.getByRole('button', { name: 'Create a new comments item in comments' }).click();
    await b.locator('#alias-comments-new-body').fill('k2 by B');
    await b.getByRole('button', { name: 'Add', exact: true }).click();
    const writes = await writesDuring(b, async () => {
      await b.getByRole('button', { name: 'Save item' }).click();
      await see(b.getByText('Someone saved this item after you opened it.'));
    });
    expect(writes).toHaveLength(1);
    expect((await api.get(`/items/articles/${id}?fields=title,comments.body`)).body.data).toEqual({ title: 'T1 by A', comments: [{ body: 'k1' }] });
    await checkPage(other, 'item-relational-conflict');
    // nothing contested: B's comment goes on top of A's title
    await b.getByRole('button', { name: 'Save with these choices' }).click();
    await see(b.getByRole('status').filter({ hasText: 'Saved.' }));
    expect((await api.get(`/items/articles/${id}?fields=title,comments.body`)).body.data).toEqual({
      title: 'T1 by A',
      comments: [{ body: 'k1' }, { body: 'k2 by B' }],
    });
    await other.close();
  }, 60_000);
});
