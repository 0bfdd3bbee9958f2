import { checkPage, describeBrowser, see, seeTexts } from './support/browser';
import { apiAs, becomes } from './support/api';
import { overflow, tabTo } from './support/keyboard';
import { ADMIN } from './support/platform-process';
import { browserSuite } from './support/suite';
import { writesDuring } from './support/writes-during';

const ID = { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } };

// Many-to-any (issue 35, point 5): the data model page makes the junction and both relations as Directus's builder
// does; the item form lists the linked items with their collection, adds a new item of one allowed collection and
// links an existing one of another, unlinks, each save one nested request; the history shows the nested children.
describeBrowser('admin app: many-to-any relations', () => {
  const suite = browserSuite({
    signedInAdmin: true,
    prepare: async (s) => {
      const api = await apiAs(s.platform.url, ADMIN.email, ADMIN.password);
      const mk = async (collection: string, fields: object[]) =>
        expect((await api.post('/collections', { collection, fields: [ID, ...fields] })).status).toBe(200);
      await mk('pages', [{ field: 'title', type: 'string' }]);
      await mk('headings', [{ field: 'title', type: 'string' }]);
      await mk('texts', [{ field: 'body', type: 'text' }]);
      expect((await api.patch('/collections/texts', { meta: { display_template: 'Text: {{body}}' } })).status).toBe(200);
      expect((await api.post('/items/pages', { title: 'Home' })).status).toBe(200);
      expect((await api.post('/items/texts', [{ body: 'Hello there' }, { body: 'Goodbye' }])).status).toBe(200);
    },
  });

  it('the data model page adds a many-to-any field: the junction with collection + item, then both relations', async () => {
    const api = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    const { page } = suite.admin;
    await page.goto('/admin/data-model/pages');
    await see(page.getByRole('heading', { level: 1, name: 'Data model of pages' }));
    await tabTo(page, page.getByRole('radio', { name: /^Many-to-one/ }));
    await page.keyboard.press('ArrowUp');
    expect(await page.getByRole('radio', { name: /^Many-to-any/ }).isChecked()).toBe(true);
    await page.getByLabel('Alias field on pages').fill('sections');
    // no collection chosen: said beside the form, nothing made
    await page.getByRole('button', { name: 'Add relation' }).click();
    await see(
      page.locator('form[aria-labelledby="add-relation-h"] [role="alert"]').filter({ hasText: 'Choose at least one collection the items may come from.' }),
    );
    expect((await api.get('/collections/pages_sections')).status).toBe(403);
    const allowed = page.getByRole('group', { name: 'Collections the items may come from' });
    await allowed.getByRole('checkbox', { name: 'headings' }).check();
    await allowed.getByRole('checkbox', { name: 'texts' }).check();
    expect(await page.getByLabel('Junction collection', { exact: true }).inputValue()).toBe('pages_sections');
    await see(page.getByText('This creates the collection pages_sections with the fields pages_id, item and collection', { exact: false }));
    await checkPage(suite.admin, 'data-model-m2a');
    await page.getByRole('button', { name: 'Add relation' }).click();
    await see(page.getByRole('status').filter({ hasText: 'sections now links items of headings, texts through the new collection pages_sections.' }));

    const rels = ((await api.get('/relations')).body.data as { collection: string; field: string }[]).filter((r) => r.collection === 'pages_sections');
    expect(rels).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          field: 'item',
          related_collection: null,
          meta: expect.objectContaining({ one_collection_field: 'collection', one_allowed_collections: ['headings', 'texts'], junction_field: 'pages_id' }),
        }),
        expect.objectContaining({
          field: 'pages_id',
          related_collection: 'pages',
          meta: expect.objectContaining({ one_field: 'sections', junction_field: 'item', one_deselect_action: 'delete' }),
        }),
      ]),
    );
    expect(rels).toHaveLength(2);
    expect((await api.get('/fields/pages/sections')).body.data.meta.special).toEqual(['m2a']);
    const types = ((await api.get('/fields/pages_sections')).body.data as { field: string; type: string }[]).map((f) => `${f.field}:${f.type}`);
    expect(types.sort()).toEqual(['collection:string', 'id:integer', 'item:string', 'pages_id:integer']);
    // the relations table says it in words
    const row = page.getByRole('table', { name: 'Relations of pages' }).getByRole('row', { name: /sections/ });
    await see(row.getByText('many-to-any: items of headings, texts through the junction pages_sections (pages_id, collection + item)'));
    await checkPage(suite.admin, 'data-model-m2a-added');
    // the junction's own page names both of its relations
    await page.goto('/admin/data-model/pages_sections');
    const jrel = page.getByRole('table', { name: 'Relations of pages_sections' });
    await see(jrel.getByRole('row', { name: /^item/ }).getByText('many-to-any item: a key of one item of headings, texts, the collection named by collection'));
    await see(jrel.getByRole('row', { name: /^pages_id/ }).getByText('many-to-one: holds one item of pages'));
    await checkPage(suite.admin, 'data-model-m2a-junction');
  }, 60_000);

  it('adds a new heading and links an existing text in one nested request; unlinks; the history shows the children', async () => {
    const api = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    const { page } = suite.admin;
    const list = page.getByRole('list', { name: 'sections of this item' });
    await page.goto('/admin/content/pages/1');
    await see(page.getByRole('heading', { level: 1, name: 'Item 1 of pages' }));
    await see(page.getByRole('group', { name: 'sections' }).getByText('None linked.'));

    // a new heading, by keyboard: reach "create", type, Enter adds
    expect(await page.getByLabel('Collection to add from').inputValue()).toBe('headings');
    await tabTo(page, page.getByRole('button', { name: 'Create a new headings item in sections' }));
    await page.keyboard.press('Enter');
    await page.locator('#alias-sections-new-headings-title').fill('Welcome');
    await page.locator('#alias-sections-new-headings-title').press('Enter');
    // an existing text, by its display template
    await page.getByLabel('Collection to add from').selectOption('texts');
    await page.getByLabel('Link an existing texts item').selectOption({ label: 'Text: Hello there' });
    await page.getByRole('button', { name: 'Link to sections' }).click();
    expect(await list.locator('li').allTextContents()).toEqual([
      expect.stringMatching(/^Welcome \(headings\) \(new: created on save\)/),
      expect.stringMatching(/^Text: Hello there \(texts\) \(linked on save\)/),
    ]);
    // a linked text is not offered twice
    await seeTexts(page.getByLabel('Link an existing texts item').locator('option'), ['Choose…', 'Text: Goodbye']);
    await checkPage(suite.admin, 'item-m2a-edited');

    const writes = await writesDuring(page, async () => {
      await page.getByRole('button', { name: 'Save item' }).click();
      await see(page.getByRole('status').filter({ hasText: 'Saved.' }));
    });
    expect(writes).toEqual([
      {
        method: 'PATCH',
        path: '/items/pages/1',
        body: {
          sections: {
            create: [
              { collection: 'headings', item: { title: 'Welcome' } },
              { collection: 'texts', item: '1' },
            ],
            update: [],
            delete: [],
          },
        },
      },
    ]);
    const junction = async () => (await api.get('/items/pages_sections?fields=id,pages_id,collection,item&sort=id')).body.data;
    expect(await junction()).toEqual([
      { id: 1, pages_id: 1, collection: 'headings', item: '1' },
      { id: 2, pages_id: 1, collection: 'texts', item: '1' },
    ]);
    expect((await api.get('/items/headings')).body.data).toEqual([{ id: 1, title: 'Welcome' }]);
    // the form shows them as stored (re-read after the save), each with its collection
    const items = async (want: string[]) =>
      JSON.parse(await becomes(async () => JSON.stringify(await list.locator('li').allTextContents()), JSON.stringify(want)));
    expect(await items(['Welcome (headings) Unlink', 'Text: Hello there (texts) Unlink'])).toEqual([
      'Welcome (headings) Unlink',
      'Text: Hello there (texts) Unlink',
    ]);

    // history: one entry with the two junction rows; under the first, the heading it created
    const entry = page.getByText('Revision 2: with 2 nested changes');
    await see(entry);
    await entry.click();
    const nested = page.locator('.history details[open] > ul.nested');
    expect((await nested.locator(':scope > li').allTextContents()).map((l) => l.replace(/ Show what.*$/, ''))).toEqual([
      'pages_sections 1 created: collection: headings, item: 1, pages_id: 1',
      'pages_sections 2 created: collection: texts, item: 1, pages_id: 1',
    ]);
    await page.getByRole('button', { name: 'Show what was written under pages_sections 1' }).click();
    await see(nested.getByRole('link', { name: 'headings 1', exact: true }));
    await seeTexts(nested.locator('ul.nested > li'), [expect.stringMatching(/^headings 1 created: title: Welcome/)]);
    await checkPage(suite.admin, 'item-m2a-history');

    // unlink the text: its junction row goes, the text stays
    await page.getByRole('button', { name: 'Unlink Text: Hello there (texts) from sections' }).click();
    const unlinked = await writesDuring(page, async () => {
      await page.getByRole('button', { name: 'Save item' }).click();
      await see(page.getByText('Revision 3: with 1 nested change'));
    });
    expect(unlinked).toEqual([{ method: 'PATCH', path: '/items/pages/1', body: { sections: { create: [], update: [], delete: [2] } } }]);
    expect(await junction()).toEqual([{ id: 1, pages_id: 1, collection: 'headings', item: '1' }]);
    expect((await api.get('/items/texts/1')).body.data).toEqual({ id: 1, body: 'Hello there' });
    expect(await items(['Welcome (headings) Unlink'])).toEqual(['Welcome (headings) Unlink']);

    // a phone: the form fits, and axe holds in the dark theme too
    await page.setViewportSize({ width: 360, height: 740 });
    await page.reload();
    await see(list);
    await checkPage(suite.admin, 'item-m2a-phone');
    expect(await overflow(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await checkPage(suite.admin, 'item-m2a-phone-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 860 });
  }, 120_000);

  it('creates a page with sections in one request; removing the field takes both relations', async () => {
    const api = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    const { page } = suite.admin;
    await page.goto('/admin/content/pages/+');
    await see(page.getByRole('heading', { level: 1, name: 'New item in pages' }));
    await page.locator('#item-pages-title').fill('About');
    await page.getByLabel('Collection to add from').selectOption('texts');
    await page.getByLabel('Link an existing texts item').selectOption({ label: 'Text: Goodbye' });
    await page.getByRole('button', { name: 'Link to sections' }).click();
    await page.getByRole('button', { name: 'Create a new texts item in sections' }).click();
    await page.locator('#alias-sections-new-texts-body').fill('Fresh text');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const writes = await writesDuring(page, async () => {
      await page.getByRole('button', { name: 'Create item' }).click();
      await see(page.getByRole('heading', { level: 1, name: /^Item \d+ of pages$/ }));
    });
    expect(writes).toEqual([
      {
        method: 'POST',
        path: '/items/pages',
        body: {
          title: 'About',
          sections: {
            create: [
              { collection: 'texts', item: '2' },
              { collection: 'texts', item: { body: 'Fresh text' } },
            ],
            update: [],
            delete: [],
          },
        },
      },
    ]);
    const id = Number(/Item (\d+) of/.exec((await page.locator('h1').textContent()) ?? '')![1]);
    expect((await api.get(`/items/pages_sections?filter[pages_id][_eq]=${id}&fields=collection,item&sort=id`)).body.data).toEqual([
      { collection: 'texts', item: '2' },
      { collection: 'texts', item: '3' },
    ]);
    expect((await api.get('/items/texts/3')).body.data).toEqual({ id: 3, body: 'Fresh text' });
    await see(page.getByRole('list', { name: 'sections of this item' }).getByText('Text: Fresh text'));

    // removing the field takes both of the junction's relations; the junction and its rows stay
    await page.goto('/admin/data-model/pages');
    await page.getByRole('button', { name: 'Remove the relation of sections' }).click();
    await see(page.getByText('Remove the many-to-any field sections? Both relations of pages_sections go; the collection pages_sections and its rows stay.'));
    await page.getByRole('button', { name: 'Yes, remove the relation of sections' }).click();
    await see(page.getByRole('status').filter({ hasText: 'The relation of sections was removed.' }));
    expect(((await api.get('/relations')).body.data as { collection: string }[]).filter((r) => r.collection === 'pages_sections')).toEqual([]);
    expect((await api.get('/items/pages_sections?aggregate[count]=*')).body.data).toEqual([{ count: 3 }]);
  }, 120_000);
});
