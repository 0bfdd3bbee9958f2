import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { chromiumPath } from '../../scripts/chromium-path';

const ROOT = path.resolve(__dirname, '../../../..');
/** Screenshots of every page checked, for people (git-ignored). */
export const SCREENSHOT_DIR = path.join(ROOT, '.cache', 'admin-screenshots');

export { chromiumPath };

/**
 * describe() for browser tests: skipped loudly when no Chromium is installed, and a failure instead when
 * REQUIRE_BROWSER_TESTS=1 (CI installs Chromium and must run them).
 */
export function describeBrowser(name: string, fn: () => void): void {
  if (chromiumPath()) return describe(name, fn);
  if (process.env.REQUIRE_BROWSER_TESTS === '1') {
    describe(name, () => {
      it('needs Chromium', () => {
        throw new Error('REQUIRE_BROWSER_TESTS=1 but no Chromium found: apt-get install -y chromium (or set CHROMIUM_PATH)');
      });
    });
    return;
  }
  console.warn(`!!! BROWSER TESTS SKIPPED (${name}): no Chromium found — apt-get install -y chromium, or set CHROMIUM_PATH`);
  describe.skip(name, fn);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface AppPage {
  page: Page;
  /** CSP violations, script errors and requests that left the platform, seen so far. */
  problems: string[];
  close(): Promise<void>;
}

/**
 * A fresh browser context (own cookies) on the platform, watching for CSP violations and outside requests; at
 * `start` (a path) when given.
 */
export async function openContext(browser: Browser, base: string, start?: string): Promise<AppPage> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 860 }, timezoneId: 'UTC', locale: 'en-GB' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) problems.push(`CSP: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`script error: ${e.message}`));
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(base) && !u.startsWith('data:')) problems.push(`request left the platform: ${u}`);
  });
  if (start) await page.goto(start);
  return { page, problems, close: () => context.close() };
}

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Check the page as it is now: axe-core inside the page (0 serious or critical violations), a screenshot to
 * SCREENSHOT_DIR, and no CSP violation or outside request so far. Returns the violations of lesser impact.
 */
export async function checkPage(app: AppPage, name: string): Promise<void> {
  const { page } = app;
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  if (!loaded) await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  const serious = (violations as AxeViolation[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect({ page: name, serious, problems: app.problems }).toEqual({ page: name, serious: [], problems: [] });
}

/** Wait until the locator is visible (the browser-test form of an assertion: fails after 15 s). */
export async function see(locator: Locator): Promise<void> {
  await locator.first().waitFor({ state: 'visible', timeout: 15_000 });
}

/**
 * The elements' texts, once they equal the expected ones (a list drawn from more than one read may be complete a
 * moment after another part of the page): polls for up to 15 s, then asserts, so a failure shows the difference.
 */
export async function seeTexts(locator: Locator, expected: unknown): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const texts = await locator.allTextContents();
    try {
      expect(texts).toEqual(expected); // jest's own comparison, so asymmetric matchers (arrayContaining) work too
      return;
    } catch (e) {
      if (Date.now() >= deadline) throw e;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until no form on the page is reading its item again (aria-busy): the values shown are the ones read. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('form[aria-busy="true"]'), undefined, { timeout: 15_000 });
}

/** The text of the elements an element's aria-describedby names (what a screen reader reads with it). */
export function description(locator: Locator): Promise<string> {
  return locator.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

export const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);

/**
 * A field refused on submit: the message is shown, the field is marked invalid, a screen reader reads the message
 * with it (after its hint, if any), and the focus is on it.
 */
export async function expectFieldError(field: Locator, message: string): Promise<void> {
  await field.page().getByText(message, { exact: true }).first().waitFor({ state: 'visible', timeout: 15_000 });
  expect({ invalid: await field.getAttribute('aria-invalid'), described: await description(field), focused: await isFocused(field) }).toEqual({
    invalid: 'true',
    described: expect.stringContaining(message),
    focused: true,
  });
}
