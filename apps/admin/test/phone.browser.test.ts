import net from 'node:net';
import { checkPage, describeBrowser, openContext, see } from './support/browser';
import { apiAs, createUser } from './support/api';
import { signIn } from './support/sign-in';
import { ADMIN } from './support/platform-process';
import { browserSuite } from './support/suite';

const SIZES = [
  { name: 'phone', width: 360, height: 740, dark: false },
  { name: 'desktop', width: 1280, height: 800, dark: false },
  // 40.10: the dark theme follows the system; axe checks its contrast too
  { name: 'desktop-dark', width: 1280, height: 800, dark: true },
];

// Issue 40.3: every signed-in page fits a 360 px screen without a horizontal page scroll (tables scroll inside
// themselves); every page at both widths checked with axe and kept as a screenshot (40.10).
describeBrowser('admin app: every page on a phone and a desktop', () => {
  let itemId = 0;
  let userId = '';
  // 40.9: `npm start` with its metrics port unset while the default 9464 is taken (another `npm start` with
  // another PORT) comes up on a free metrics port and says so
  const holder = net.createServer();
  beforeAll(() => new Promise<void>((resolve) => holder.once('error', () => resolve()).listen(9464, '127.0.0.1', resolve)));
  afterAll(() => new Promise<void>((resolve) => (holder.listening ? holder.close(() => resolve()) : resolve())));
  const suite = browserSuite({
    signedInAdmin: true,
    env: { METRICS_PORT: undefined as unknown as string },
    prepare: async (s) => {
      const api = await apiAs(s.platform.url, ADMIN.email, ADMIN.password);
      const fields = [
        { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
        ...['title', 'subtitle', 'author', 'category', 'summary', 'keywords', 'location'].map((field) => ({ field, type: 'string' })),
        { field: 'body', type: 'text' },
      ];
      expect((await api.post('/collections', { collection: 'long_named_articles', fields })).status).toBe(200);
      const words = 'a-rather-long-unbroken-value-that-does-not-wrap-by-itself';
      itemId = (await api.post('/items/long_named_articles', { title: words, subtitle: words, author: words, body: `${words}\n`.repeat(5) })).body.data.id;
      expect((await api.patch(`/items/long_named_articles/${itemId}`, { title: 'second' })).status).toBe(200);
      userId = (await api.get(`/users?filter[email][_eq]=${encodeURIComponent(ADMIN.email)}&fields=id`)).body.data[0].id;
    },
  });

  it('no signed-in page scrolls sideways at 360 px; every page in one visual language, light and dark, with icons (40.3, 40.10)', async () => {
    const { page } = suite.admin;
    const pages: [string, string][] = [
      ['content', '/admin/content'],
      ['items', '/admin/content/long_named_articles'],
      ['item', `/admin/content/long_named_articles/${itemId}`],
      ['new-item', '/admin/content/long_named_articles/+'],
      ['activity', '/admin/activity'],
      ['profile', '/admin/profile'],
      ['users', '/admin/users'],
      ['user', `/admin/users/${userId}`],
      ['roles', '/admin/roles'],
      ['permissions', '/admin/permissions'],
    ];
    const wide: string[] = [];
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.emulateMedia({ colorScheme: size.dark ? 'dark' : 'light' });
      for (const [name, path] of pages) {
        await page.goto(path);
        await see(page.locator('h1'));
        await checkPage(suite.admin, `${name}-${size.name}`);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        if (width > size.width)
          wide.push(
            `${name} at ${size.width}: ${width} px (${await page.evaluate(
              (w) =>
                [...document.querySelectorAll('main *')]
                  .filter((el) => el.getBoundingClientRect().right > w && !el.closest('.table-scroll'))
                  .slice(0, 3)
                  .map((el) => `${el.tagName.toLowerCase()}.${el.className}`)
                  .join(', '),
              size.width,
            )})`,
          );
        const look = await page.evaluate(() => ({
          dark: getComputedStyle(document.documentElement).backgroundColor === 'rgb(17, 20, 24)',
          icons: document.querySelectorAll('.main-nav a svg.icon').length,
        }));
        expect({ name, size: size.name, ...look }).toEqual({ name, size: size.name, dark: size.dark, icons: expect.any(Number) });
        expect(look.icons).toBeGreaterThanOrEqual(6);
      }
    }
    expect(wide).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
  }, 180_000);

  it("sends the app's scripts and styles compressed (issue 40.9)", async () => {
    const { page } = suite.admin;
    const encodings = new Map<string, string | undefined>();
    page.on('response', (r) => {
      if (/\/admin\/assets\/.*\.(js|css)$/.test(r.url())) encodings.set(r.url(), r.headers()['content-encoding']);
    });
    // a fresh load past the browser's cache
    await page.context().clearCookies();
    await page.goto('/admin/login', { waitUntil: 'networkidle' });
    await page.reload({ waitUntil: 'networkidle' });
    expect(encodings.size).toBeGreaterThan(0);
    for (const [url, enc] of encodings) expect({ url, enc }).toEqual({ url, enc: expect.stringMatching(/^(br|gzip)$/) });
  });

  it('starts with the default metrics port taken, on a free one it names (issue 40.9)', () => {
    expect(suite.platform.output()).toContain('metrics port 9464 is taken');
  });

  it('no 403 in the console on signed-out pages or a non-administrator profile (issue 40.9)', async () => {
    const app = await openContext(suite.browser, suite.platform.url);
    const failures: string[] = [];
    app.page.on('response', (r) => {
      if (r.status() >= 400) failures.push(`${r.status()} ${new URL(r.url()).pathname} on ${new URL(app.page.url()).pathname}`);
    });
    for (const path of ['/admin/login', '/admin/forgot-password']) {
      await app.page.goto(path, { waitUntil: 'networkidle' });
      await see(app.page.locator('h1'));
    }
    const user = await createUser(suite.platform.url, ADMIN, { prefix: 'plain', password: 'plain-password-1' });
    await signIn(app.page, user.email, 'plain-password-1');
    await app.page.goto('/admin/profile', { waitUntil: 'networkidle' });
    await see(app.page.getByRole('heading', { level: 1, name: 'Profile' }));
    expect(failures).toEqual([]);
    await app.close();
  });
});
