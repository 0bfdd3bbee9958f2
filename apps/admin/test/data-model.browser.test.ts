import { checkPage, describeBrowser, openContext, see } from './support/browser';
import { apiAs, createUser } from './support/api';
import { signIn } from './support/sign-in';
import { overflow, tabTo } from './support/keyboard';
import { ADMIN } from './support/platform-process';
import { browserSuite } from './support/suite';

const ID = { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } };

// The data model page of a collection (administrators): fields added, changed and removed, relations of each kind
// added and removed through the schema API, its errors shown beside the form.
describeBrowser('admin app: the data model of a collection', () => {
  const suite = browserSuite({ signedInAdmin: true });

  it('adds, edits and removes fields; adds a many-to-one, a one-to-many and a many-to-many; removes a relation', async () => {
    const api = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    for (const [collection, fields] of [
      ['authors', [{ field: 'name', type: 'string' }]],
      ['articles', [{ field: 'title', type: 'string' }]],
      ['comments', [{ field: 'body', type: 'string' }]],
      ['tags', [{ field: 'name', type: 'string' }]],
    ] as const)
      expect((await api.post('/collections', { collection, fields: [ID, ...fields] })).status).toBe(200);
    expect((await api.post('/items/articles', [{ title: 'one' }, { title: 'two' }])).status).toBe(200);
    const field = async (c: string, f: string) => (await api.get(`/fields/${c}/${f}`)).body.data;
    const relations = async () =>
      ((await api.get('/relations')).body.data as { collection: string; field: string; related_collection: string; meta: Record<string, unknown> }[])
        .map((r) =>
          `${r.collection}.${r.field}→${r.related_collection} ${r.meta.one_field ?? ''} ${r.meta.junction_field ?? ''} ${r.meta.one_deselect_action}`.trim(),
        )
        .sort();

    const { page } = suite.admin;
    await page.goto('/admin/content/articles');
    await page.getByRole('link', { name: 'Data model of articles' }).click();
    await see(page.getByRole('heading', { level: 1, name: 'Data model of articles' }));
    await see(page.getByRole('rowheader', { name: 'title' }));
    await checkPage(suite.admin, 'data-model');

    // add a field with every property; the column is there as asked
    await page.getByLabel('Field name', { exact: true }).fill('views');
    await page.getByLabel('Type', { exact: true }).selectOption('integer');
    await page.getByLabel('Default value', { exact: true }).fill('0');
    const add = page.locator('form[aria-labelledby="add-field-h"]');
    await add.getByRole('checkbox', { name: 'May be empty (nullable)' }).uncheck();
    await add.getByRole('checkbox', { name: 'Indexed' }).check();
    await page.getByLabel('Note', { exact: true }).fill('times read');
    await page.getByRole('button', { name: 'Add field' }).click();
    await see(page.getByRole('status').filter({ hasText: 'The field views was added.' }));
    expect(await field('articles', 'views')).toMatchObject({
      type: 'integer',
      schema: { default_value: 0, is_nullable: false, is_indexed: true, is_unique: false },
      meta: { note: 'times read' },
    });
    // existing items got the default at once
    expect((await api.get('/items/articles?fields=views')).body.data).toEqual([{ views: 0 }, { views: 0 }]);
    await page.getByLabel('Field name', { exact: true }).fill('code');
    await page.getByRole('checkbox', { name: 'Unique' }).check();
    await page.getByRole('button', { name: 'Add field' }).click();
    await see(page.getByRole('status').filter({ hasText: 'The field code was added.' }));
    expect((await field('articles', 'code')).schema.is_unique).toBe(true);

    // the API's refusal is shown beside the form, in its words
    await page.getByLabel('Field name', { exact: true }).fill('title');
    await page.getByRole('button', { name: 'Add field' }).click();
    const refused = page.locator('form[aria-labelledby="add-field-h"] [role="alert"]');
    await see(refused);
    expect(await refused.textContent()).toBe('Invalid payload. field "title" already exists in "articles"');
    await checkPage(suite.admin, 'data-model-error');

    // edit: default, nullability, note, index
    await page.getByRole('button', { name: 'Edit the field views' }).click();
    await page.getByLabel('Default value of views').fill('5');
    const edit = page.locator('form[aria-labelledby="edit-field-h"]');
    await edit.getByRole('checkbox', { name: 'May be empty (nullable)' }).check();
    await edit.getByRole('checkbox', { name: 'Indexed' }).uncheck();
    await page.getByLabel('Note on views').fill('read count');
    await page.getByRole('button', { name: 'Save field' }).click();
    await see(page.getByRole('status').filter({ hasText: 'The field views was saved.' }));
    expect(await field('articles', 'views')).toMatchObject({
      schema: { default_value: 5, is_nullable: true, is_indexed: false },
      meta: { note: 'read count' },
    });

    // remove: the confirmation names what goes
    await page.getByRole('button', { name: 'Remove the field code' }).click();
    await see(page.getByText('Remove the field code? Its values in 2 items are deleted for good (the revisions keep them).'));
    await page.getByRole('button', { name: 'Yes, remove code' }).click();
    await see(page.getByRole('status').filter({ hasText: 'The field code was removed.' }));
    expect((await api.get('/fields/articles/code')).status).toBe(403);

    // many-to-one, its field created with the related key's type
    await page.getByRole('radio', { name: /^Many-to-one/ }).check();
    await page.getByLabel('Related collection').selectOption('authors');
    await page.getByLabel('Field of articles that holds the key').selectOption({ label: 'A new field (integer)' });
    await page.getByLabel('New field name').fill('author');
    await page.getByRole('button', { name: 'Add relation' }).click();
    await see(page.getByRole('status').filter({ hasText: 'author now holds one item of authors.' }));
    expect((await field('articles', 'author')).type).toBe('integer');

    // one-to-many: the alias here, the key field created on the child, unlinked children deleted
    await page.getByRole('radio', { name: /^One-to-many/ }).check();
    await page.getByLabel('Alias field on articles').fill('comments');
    await page.getByLabel('Child collection').selectOption('comments');
    await page.getByLabel('New key field name').fill('article');
    await page.getByLabel('When a child is unlinked').selectOption('delete');
    await page.getByRole('button', { name: 'Add relation' }).click();
    await see(page.getByRole('status').filter({ hasText: 'comments now lists the items of comments by their article.' }));

    // many-to-many: the page says what it creates, then creates it
    // by keyboard: Tab reaches the radio group (its checked radio), an arrow key moves the choice
    await tabTo(page, page.getByRole('radio', { name: /^One-to-many/ }));
    await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('radio', { name: /^Many-to-many/ }).isChecked()).toBe(true);
    await page.getByLabel('Alias field on articles').fill('tags');
    await page.getByLabel('Related collection').selectOption('tags');
    await see(
      page.getByText(
        'This creates the collection articles_tags with the fields articles_id and tags_id, then its relation to articles and its relation to tags, in that order.',
        { exact: false },
      ),
    );
    await checkPage(suite.admin, 'data-model-m2m');
    await tabTo(page, page.getByRole('button', { name: 'Add relation' }));
    await page.keyboard.press('Enter');
    await see(page.getByRole('status').filter({ hasText: 'tags now links items of tags through the new collection articles_tags.' }));
    expect(await relations()).toEqual([
      'articles.author→authors   nullify',
      'articles_tags.articles_id→articles tags tags_id delete',
      'articles_tags.tags_id→tags  articles_id nullify',
      'comments.article→articles comments  delete',
    ]);
    const relTable = page.getByRole('table', { name: 'Relations of articles' });
    // the table is read again after the status is announced: wait for its new row before reading it once
    await see(relTable.locator('tbody th').filter({ hasText: /^tags$/ }));
    expect((await relTable.locator('tbody th').allTextContents()).sort()).toEqual(['author', 'comments', 'tags']);

    // a relation the API refuses (the alias clashes with a field): its message beside the form, nothing made
    await page.getByRole('radio', { name: /^One-to-many/ }).check();
    await page.getByLabel('Alias field on articles').fill('title');
    await page.getByLabel('Child collection').selectOption('authors');
    await page.getByLabel('New key field name').fill('article');
    await page.getByRole('button', { name: 'Add relation' }).click();
    const relError = page.locator('form[aria-labelledby="add-relation-h"] [role="alert"]');
    await see(relError);
    expect(await relError.textContent()).toContain('already has a field "title"');
    // the key field made for it was taken back
    expect((await api.get('/fields/authors/article')).status).toBe(403);

    // removing the many-to-many takes both of its relations; the junction collection stays
    await page.getByRole('button', { name: 'Remove the relation of tags' }).click();
    await see(page.getByText('Remove the many-to-many field tags? Both relations of articles_tags go; the collection articles_tags and its rows stay.'));
    await page.getByRole('button', { name: 'Yes, remove the relation of tags' }).click();
    await see(page.getByRole('status').filter({ hasText: 'The relation of tags was removed.' }));
    expect(await relations()).toEqual(['articles.author→authors   nullify', 'comments.article→articles comments  delete']);
    expect((await api.get('/collections/articles_tags')).status).toBe(200);

    // a many-to-one field removed takes its relation with it
    await page.getByRole('button', { name: 'Remove the field author' }).click();
    await see(
      page.getByText('Remove the field author? Its values in 2 items are deleted for good (the revisions keep them). Its relation to authors goes too.'),
    );
    await page.getByRole('button', { name: 'Yes, remove author' }).click();
    await see(page.getByRole('status').filter({ hasText: 'The field author was removed.' }));
    expect(await relations()).toEqual(['comments.article→articles comments  delete']);

    // the display template is the collection's meta
    await page.getByLabel('Display template').fill('{{title}} ({{views}})');
    await page.getByRole('button', { name: 'Save display template' }).click();
    await see(page.getByRole('status').filter({ hasText: 'The display template was saved.' }));
    expect((await api.get('/collections/articles')).body.data.meta.display_template).toBe('{{title}} ({{views}})');
    await checkPage(suite.admin, 'data-model-done');

    // a phone: nothing scrolls sideways (the tables scroll inside themselves)
    await page.setViewportSize({ width: 360, height: 740 });
    await page.reload();
    await see(page.getByRole('heading', { level: 1, name: 'Data model of articles' }));
    await checkPage(suite.admin, 'data-model-phone');
    expect(await overflow(page)).toEqual([]);
    // and the dark theme holds axe's contrast checks too
    await page.emulateMedia({ colorScheme: 'dark' });
    await checkPage(suite.admin, 'data-model-phone-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 860 });
  }, 120_000);

  it('an unknown collection is not found; the page is for administrators only', async () => {
    const { page } = suite.admin;
    await page.goto('/admin/data-model/nope');
    await see(page.getByRole('alert').filter({ hasText: /not found/ }));
    const user = await createUser(suite.platform.url, ADMIN, { prefix: 'editor', password: 'editor-password-1' });
    const other = await openContext(suite.browser, suite.platform.url);
    await signIn(other.page, user.email, 'editor-password-1');
    await other.page.goto('/admin/data-model/articles');
    await see(other.page.getByText('This page is for administrators.'));
    await other.close();
  });
});
