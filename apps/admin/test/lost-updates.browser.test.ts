import { checkPage, describeBrowser, openContext, see } from './support/browser';
import { apiAs } from './support/api';
import { signIn } from './support/sign-in';
import { ADMIN } from './support/platform-process';
import { browserSuite } from './support/suite';

// Issue 40.1, the app's half: a save sends only the fields it changed, conditional on the version it read
// (If-Match with the item's ETag); someone else's save in between is never reverted, and where both changed the
// same field the person sees both values and chooses. A save with no change writes nothing.
describeBrowser('admin app: no lost updates', () => {
  const suite = browserSuite({ signedInAdmin: true });

  it('two people edit the same item: neither loses the other’s change; a conflict on one field is shown and chosen', async () => {
    const base = suite.platform.url;
    const api = await apiAs(base, ADMIN.email, ADMIN.password);
    const fields = [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
      { field: 'title', type: 'string' },
      { field: 'body', type: 'text' },
    ];
    expect((await api.post('/collections', { collection: 'pages', fields })).status).toBe(200);
    const id = (await api.post('/items/pages', { title: 'T0', body: 'B0' })).body.data.id as number;
    const path = `/admin/content/pages/${id}`;
    const field = (page: typeof a, name: string) => page.locator(`#item-pages-${name}`);
    const revisions = async () =>
      (await api.get(`/revisions?filter[collection][_eq]=pages&filter[item][_eq]=${id}&aggregate[count]=*`)).body.data[0].count as number;

    const a = suite.admin.page;
    const other = await openContext(suite.browser, base);
    const b = other.page;
    await signIn(b, ADMIN.email, ADMIN.password);
    await Promise.all([a.goto(path), b.goto(path)]);
    await Promise.all([see(a.getByRole('button', { name: 'Save item' })), see(b.getByRole('button', { name: 'Save item' }))]);

    // A changes the title and saves; B, opened before, changes the body and saves
    await field(a, 'title').fill('T1');
    await a.getByRole('button', { name: 'Save item' }).click();
    await see(a.getByRole('status').filter({ hasText: 'Saved.' }));
    await field(b, 'body').fill('B1');
    await b.getByRole('button', { name: 'Save item' }).click();
    // with versions, B's save meets A's: nothing contested, B's change goes on top
    const resolve = b.getByRole('button', { name: 'Save with these choices' });
    await Promise.race([see(b.getByRole('status').filter({ hasText: 'Saved.' })), see(resolve)]);
    if (await resolve.count()) await resolve.click();
    await see(b.getByRole('status').filter({ hasText: 'Saved.' }));
    expect((await api.get(`/items/pages/${id}`)).body.data).toMatchObject({ title: 'T1', body: 'B1' });

    // a save with no change writes nothing and no revision
    await b.reload();
    await see(b.getByRole('button', { name: 'Save item' }));
    await b.waitForLoadState('networkidle');
    const before = await revisions();
    await b.getByRole('button', { name: 'Save item' }).click();
    await see(b.getByRole('status').filter({ hasText: 'Nothing changed: nothing was saved.' }));
    await b.waitForTimeout(300);
    expect(await revisions()).toBe(before);

    // both change the title: B's save meets A's version (If-Match → 412); B sees both values and keeps its own
    expect((await api.get(`/items/pages/${id}`)).headers.etag).toMatch(/^"\d+"$/);
    await a.reload();
    await see(a.getByRole('button', { name: 'Save item' }));
    await field(a, 'title').fill('T2 by A');
    await a.getByRole('button', { name: 'Save item' }).click();
    await see(a.getByRole('status').filter({ hasText: 'Saved.' }));
    await field(b, 'title').fill('T3 by B');
    await b.getByRole('button', { name: 'Save item' }).click();
    await see(b.getByText('Someone saved this item after you opened it.'));
    await see(b.getByText('Theirs (saved): T2 by A'));
    await see(b.getByText('Yours: T3 by B'));
    await checkPage(other, 'item-conflict');
    expect((await api.get(`/items/pages/${id}`)).body.data.title).toBe('T2 by A');
    await b.getByRole('radio', { name: /^Yours/ }).check();
    await resolve.click();
    await see(b.getByRole('status').filter({ hasText: 'Saved.' }));
    expect((await api.get(`/items/pages/${id}`)).body.data).toMatchObject({ title: 'T3 by B', body: 'B1' });
    await other.close();
  }, 90_000);
});
