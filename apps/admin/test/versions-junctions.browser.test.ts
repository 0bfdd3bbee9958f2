import { checkPage, describeBrowser, see, seeTexts, settled } from './support/browser';
import { apiAs } from './support/api';
import { ADMIN } from './support/platform-process';
import { browserSuite } from './support/suite';

const ID = { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } };

// Issue 36 with the data model: in a content version the item form lists many-to-many and many-to-any links as the
// version has them (links it adds, items it creates, links it removes gone), while the live item keeps its own.
describeBrowser('admin app: many-to-many and many-to-any links in a content version', () => {
  let post = 0;
  const suite = browserSuite({
    signedInAdmin: true,
    prepare: async (s) => {
      const api = await apiAs(s.platform.url, ADMIN.email, ADMIN.password);
      const mk = async (collection: string, fields: object[]) =>
        expect((await api.post('/collections', { collection, fields: [ID, ...fields] })).status).toBe(200);
      const rel = async (body: object) => expect((await api.post('/relations', body)).status).toBe(200);
      await mk('posts', [{ field: 'title', type: 'string' }]);
      await mk('tags', [{ field: 'name', type: 'string' }]);
      await mk('posts_tags', [
        { field: 'posts_id', type: 'integer' },
        { field: 'tags_id', type: 'integer' },
      ]);
      await mk('headings', [{ field: 'title', type: 'string' }]);
      await mk('posts_sections', [
        { field: 'posts_id', type: 'integer' },
        { field: 'collection', type: 'string' },
        { field: 'item', type: 'string' },
      ]);
      expect((await api.patch('/collections/posts', { meta: { versioning: true } })).status).toBe(200);
      await rel({
        collection: 'posts_tags',
        field: 'posts_id',
        related_collection: 'posts',
        meta: { one_field: 'tags', junction_field: 'tags_id', one_deselect_action: 'delete' },
      });
      await rel({ collection: 'posts_tags', field: 'tags_id', related_collection: 'tags', meta: { junction_field: 'posts_id' } });
      await rel({
        collection: 'posts_sections',
        field: 'item',
        related_collection: null,
        meta: { one_allowed_collections: ['headings'], one_collection_field: 'collection', junction_field: 'posts_id' },
      });
      await rel({
        collection: 'posts_sections',
        field: 'posts_id',
        related_collection: 'posts',
        meta: { one_field: 'sections', junction_field: 'item', one_deselect_action: 'delete' },
      });
      expect((await api.post('/items/tags', [{ name: 'news' }, { name: 'tech' }])).status).toBe(200);
      expect((await api.post('/items/headings', [{ title: 'Intro' }, { title: 'Outro' }])).status).toBe(200);
      const created = await api.post('/items/posts', { title: 'Post', tags: [{ tags_id: 1 }], sections: [{ collection: 'headings', item: '1' }] });
      expect(created.status).toBe(200);
      post = created.body.data.id;
      expect((await api.post('/versions', { collection: 'posts', item: post, key: 'draft', name: 'Draft' })).status).toBe(200);
    },
  });

  it('links, creates and unlinks in a version: listed as the version has them, the live links unchanged until promoted', async () => {
    const a = await apiAs(suite.platform.url, ADMIN.email, ADMIN.password);
    const { page } = suite.admin;
    const tags = page.getByRole('list', { name: 'tags of this item' });
    const sections = page.getByRole('list', { name: 'sections of this item' });
    const live = async () => ({
      tags: (await a.get(`/items/posts_tags?filter[posts_id][_eq]=${post}&fields=tags_id.name&sort=id`)).body.data.map(
        (r: { tags_id: { name: string } }) => r.tags_id.name,
      ),
      sections: (await a.get(`/items/posts_sections?filter[posts_id][_eq]=${post}&fields=item&sort=id`)).body.data.map((r: { item: string }) => r.item),
    });
    const choose = async () => {
      await page.getByLabel('Version', { exact: true }).selectOption({ label: 'Draft (draft)' });
      await see(page.getByRole('button', { name: 'Save to version' }));
      await settled(page);
    };
    await page.goto(`/admin/content/posts/${post}`);
    await choose();
    await see(tags.getByText('news'));

    // in the version: unlink news, link tech, create "fresh"; link the heading Outro
    await page.getByRole('button', { name: 'Unlink news from tags' }).click();
    await page.getByLabel('Link an existing tags item').selectOption({ label: 'tech' });
    await page.getByRole('button', { name: 'Link to tags' }).click();
    await page.getByRole('button', { name: 'Create a new tags item in tags' }).click();
    await page.locator('#alias-tags-new-name').fill('fresh');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByLabel('Link an existing headings item').selectOption({ label: 'Outro' });
    await page.getByRole('button', { name: 'Link to sections' }).click();
    await page.getByRole('button', { name: 'Save to version' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Saved to version Draft (draft). The live item is unchanged.' }));
    expect(await live()).toEqual({ tags: ['news'], sections: ['1'] });

    // the form lists the links as the version has them, after the save and after a reload
    const listed = ['tech (in this version: linked when it is promoted)', 'fresh (new in this version: created when it is promoted)'];
    const listedSections = ['Intro (headings) Unlink', 'Outro (headings) (in this version: linked when it is promoted)'];
    await see(tags.getByText('fresh'));
    await settled(page);
    await seeTexts(tags.locator('li'), listed);
    await seeTexts(sections.locator('li'), listedSections);
    // a tag the version links is not offered again
    await seeTexts(page.getByLabel('Link an existing tags item').locator('option'), ['Choose…', 'news']);
    await page.reload();
    await choose();
    await see(tags.getByText('fresh'));
    await seeTexts(tags.locator('li'), listed);
    await seeTexts(sections.locator('li'), listedSections);
    await checkPage(suite.admin, 'versions-junctions');

    // Main shows the live links; promote brings the version's
    await page.getByLabel('Version', { exact: true }).selectOption({ label: 'Main (the live item)' });
    await see(page.getByRole('button', { name: 'Save item' }));
    await settled(page);
    await see(tags.getByText('news'));
    await seeTexts(tags.locator('li'), ['news Unlink']);
    await choose();
    await page.getByRole('button', { name: 'Compare with the live item' }).click();
    await page.getByRole('button', { name: 'Promote all changes' }).click();
    await see(page.getByRole('status').filter({ hasText: 'Promoted' }));
    expect(await live()).toEqual({ tags: ['tech', 'fresh'], sections: ['1', '2'] });
  }, 90_000);
});
